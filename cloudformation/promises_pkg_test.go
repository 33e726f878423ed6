package cloudformation_test

import (
	"bytes"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
)

// TestTemplateRefusesUnknownEnums: Options.Projection is "ALL (default),
// KEYS_ONLY or INCLUDE" and StreamViewType a stream view such as
// NEW_AND_OLD_IMAGES; any other value is a bad option, an error wrapping
// adjlist.ErrInvalidOption from NewTemplate and Write, with nothing
// written, as CreateTable refuses the same values (they were written
// into a template CloudFormation refuses at deploy time).
func TestTemplateRefusesUnknownEnums(t *testing.T) {
	table := adjlist.NewTable(nil, "school")
	students := adjlist.NewNode[student](table, "STU", "PROFILE")
	m, err := adjlist.DescribeModel(table, students)
	require.NoError(t, err)
	for name, fn := range map[string]func(*cloudformation.Options){
		"projection":       func(o *cloudformation.Options) { o.Projection = "EVERYTHING" },
		"lower-case all":   func(o *cloudformation.Options) { o.Projection = "all" },
		"stream view type": func(o *cloudformation.Options) { o.StreamViewType = "NEW_AND_OLD" },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := cloudformation.NewTemplate(m, fn)
			require.ErrorIs(t, err, adjlist.ErrInvalidOption)
			var buf bytes.Buffer
			require.ErrorIs(t, cloudformation.Write(&buf, m, fn), adjlist.ErrInvalidOption)
			assert.Zero(t, buf.Len(), "nothing written")
		})
	}
	for _, v := range types.StreamViewType("").Values() {
		_, err := cloudformation.NewTemplate(m, func(o *cloudformation.Options) { o.StreamViewType = v })
		require.NoError(t, err, "stream view type %s", v)
	}
	for _, v := range []types.ProjectionType{types.ProjectionTypeAll, types.ProjectionTypeKeysOnly} {
		_, err := cloudformation.NewTemplate(m, func(o *cloudformation.Options) { o.Projection = v })
		require.NoError(t, err, "projection %s", v)
	}
}
