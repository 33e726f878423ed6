package cloudformation_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/internal/cfnlint"
)

type session struct {
	Device    string `dynamodbav:"device"`
	ExpiresAt int64  `dynamodbav:"expiresAt"`
}

// TestTemplateTimeToLive: a model whose item types expire (blog's
// sessions, a collection; socialnetwork's timeline, an entity) gets
// TimeToLiveSpecification on their Tracking.Expiry attribute, cfn-lint
// clean; Options.TimeToLiveAttribute wins over the model's.
func TestTemplateTimeToLive(t *testing.T) {
	blog := func() *adjlist.Model {
		table := adjlist.NewTable(nil, "blog", func(o *adjlist.Options) {
			o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
		})
		authors := adjlist.NewNode[student](table, "AUTHOR", "PROFILE")
		sessions := adjlist.NewCollection[session](authors, "SESSION", func(o *adjlist.CollectionOptions) {
			o.Expiry, o.Lifetime = "expiresAt", 24*time.Hour
		})
		m, err := adjlist.DescribeModel(table, authors, sessions)
		require.NoError(t, err)
		return m
	}
	socialnetwork := func() *adjlist.Model {
		table := adjlist.NewTable(nil, "socialnetwork", func(o *adjlist.Options) { o.NoIndex = true })
		users := adjlist.NewEntity[student](table, "user", "u#{userID}", "info")
		timeline := adjlist.NewEntity[course](table, "timeline", "u#{userID}#timeline", "p#{postID}#u#{authorID}",
			func(o *adjlist.EntityOptions) { o.Expiry = "ttl" })
		m, err := adjlist.DescribeModel(table, users, timeline)
		require.NoError(t, err)
		return m
	}
	for _, tc := range []struct {
		name  string
		model *adjlist.Model
		ttl   string
	}{{"blog", blog(), "expiresAt"}, {"socialnetwork", socialnetwork(), "ttl"}} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, cloudformation.Write(&buf, tc.model))
			path := filepath.Join(t.TempDir(), "table.json")
			require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
			cfnlint.Check(t, path)
			tpl, err := cloudformation.NewTemplate(tc.model)
			require.NoError(t, err)
			assert.Equal(t, &cloudformation.TimeToLiveSpecification{AttributeName: tc.ttl, Enabled: true},
				tpl.Resources["Table"].Properties.TimeToLiveSpecification)

			tpl, err = cloudformation.NewTemplate(tc.model, func(o *cloudformation.Options) { o.TimeToLiveAttribute = "other" })
			require.NoError(t, err)
			assert.Equal(t, &cloudformation.TimeToLiveSpecification{AttributeName: "other", Enabled: true},
				tpl.Resources["Table"].Properties.TimeToLiveSpecification, "the option wins")
		})
	}
}
