package workbench_test

import (
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/workbench"
)

type (
	userInfo struct {
		Name string `dynamodbav:"name"`
	}
	follower struct {
		Since string `dynamodbav:"since"`
	}
	timelineEntry struct {
		Author string `dynamodbav:"author"`
	}
	session struct {
		Device string `dynamodbav:"device"`
	}
)

func s(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }

// TestWorkbenchFacetsFromTemplates: sample items go into the facets of
// the item types whose templates their keys match, from the model's
// templates: entities whose keys have text after an id
// (u#<userID>#follower), and sharded children, keep all their items.
func TestWorkbenchFacetsFromTemplates(t *testing.T) {
	table := adjlist.NewTable(nil, "social")
	users := adjlist.NewEntity[userInfo](table, "user", "u#{userID}", "info")
	followers := adjlist.NewEntity[follower](table, "follower", "u#{userID}#follower", "u#{followerID}")
	ws := adjlist.NewNode[userInfo](table, "WS", "META")
	projects := adjlist.NewCollection[userInfo](ws, "PROJ", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
	m, err := adjlist.DescribeModel(table, users, followers, ws, projects)
	require.NoError(t, err)
	items := []map[string]types.AttributeValue{
		{"PK": s("u#12345"), "SK": s("info"), "name": s("Ada")},
		{"PK": s("u#12345#follower"), "SK": s("u#34567"), "since": s("2026-11-01")},
		{"PK": s("u#12345#follower"), "SK": s("u#56789"), "since": s("2026-11-02")},
		{"PK": s("WS#acme#02"), "SK": s("PROJ#2026-0042"), "name": s("Apollo")},
		{"PK": s("u#12345#other"), "SK": s("u#34567")}, // no item type's
	}
	f, err := workbench.New(m, func(o *workbench.Options) { o.Items = items })
	require.NoError(t, err)
	facets := map[string][]workbench.Item{}
	for _, facet := range f.DataModel[0].TableFacets {
		facets[facet.FacetName] = facet.TableData
	}
	assert.Equal(t, []workbench.Item{workbench.NewItem(items[0])}, facets["entity_user"])
	assert.Equal(t, []workbench.Item{workbench.NewItem(items[1]), workbench.NewItem(items[2])}, facets["entity_follower"])
	assert.Empty(t, facets["node_WS"])
	assert.Equal(t, []workbench.Item{workbench.NewItem(items[3])}, facets["child_PROJ_of_WS"])
	assert.Len(t, f.DataModel[0].TableData, len(items), "TableData has every item")
}

// TestWorkbenchTimeToLive: the format has no TTL setting, so the model's
// Time to Live attribute is a Number attribute of the table and of the
// expiring item types' facets, and the Description names it.
func TestWorkbenchTimeToLive(t *testing.T) {
	table := adjlist.NewTable(nil, "blog")
	authors := adjlist.NewNode[userInfo](table, "AUTHOR", "PROFILE")
	sessions := adjlist.NewCollection[session](authors, "SESSION", func(o *adjlist.CollectionOptions) {
		o.Expiry, o.Lifetime = "expiresAt", 24*time.Hour
	})
	timeline := adjlist.NewEntity[timelineEntry](table, "timeline", "u#{userID}#timeline", "p#{postID}", func(o *adjlist.EntityOptions) { o.Expiry = "expiresAt" })
	m, err := adjlist.DescribeModel(table, authors, sessions, timeline)
	require.NoError(t, err)
	f, err := workbench.New(m)
	require.NoError(t, err)
	tb := f.DataModel[0]
	assert.Contains(t, tb.NonKeyAttributes, workbench.Attribute{AttributeName: "expiresAt", AttributeType: "N"})
	require.Len(t, tb.TableFacets, 3)
	assert.NotContains(t, tb.TableFacets[0].NonKeyAttributes, "expiresAt")
	assert.Equal(t, []string{"device", "expiresAt"}, tb.TableFacets[1].NonKeyAttributes)
	assert.Equal(t, []string{"author", "expiresAt"}, tb.TableFacets[2].NonKeyAttributes)
	assert.Contains(t, f.ModelMetadata.Description, "\nTime to Live: expiresAt (epoch seconds).\n")
}
