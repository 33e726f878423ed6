package adjlist_test

import (
	"context"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// TestUndecodableItems: an item whose data does not fit the Go type (written
// by another program, say) fails every read that meets it with the
// decoder's error, wrapped in an OpError naming the read, once, and with no
// partial result.
func TestUndecodableItems(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	seedSchool(t, s)
	ctx := context.Background()
	// Enrollment.Grade is a string; this edge stores a boolean.
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: map[string]types.AttributeValue{
		"PK":     &types.AttributeValueMemberS{Value: "STU#a91"},
		"SK":     &types.AttributeValueMemberS{Value: "ENROLL#CRS#bio110"},
		"GSI1PK": &types.AttributeValueMemberS{Value: "CRS#bio110"},
		"GSI1SK": &types.AttributeValueMemberS{Value: "STU#a91"},
		"grade":  &types.AttributeValueMemberBOOL{Value: true},
	}})
	require.NoError(t, err)
	// Student.Name is a string; this profile stores a boolean.
	_, err = s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: map[string]types.AttributeValue{
		"PK":   &types.AttributeValueMemberS{Value: "STU#c77"},
		"SK":   &types.AttributeValueMemberS{Value: "PROFILE"},
		"name": &types.AttributeValueMemberBOOL{Value: true},
	}})
	require.NoError(t, err)

	collect := func(q adjlist.Query[adjlist.EdgeItem[Enrollment]]) func(*testing.T) (int, error) {
		return func(*testing.T) (int, error) {
			items, err := q.Collect(ctx)
			return len(items), err
		}
	}
	tests := []struct {
		name string
		op   string
		read func(t *testing.T) (int, error) // items returned, error
	}{
		{"Collect", "Edge.From", collect(s.enrolled.From("a91"))},
		{"Collect with a page limit", "Edge.From", collect(s.enrolled.From("a91").Limit(1))},
		{"All", "Edge.From", func(t *testing.T) (int, error) {
			n, errs := 0, 0
			var last error
			for _, err := range s.enrolled.From("a91").All(ctx) {
				if err != nil {
					errs++
					last = err
					continue
				}
				n++
			}
			require.Equal(t, 1, errs, "the error is yielded once")
			return 0, last
		}},
		{"Page", "Edge.From", func(*testing.T) (int, error) {
			p, err := s.enrolled.From("a91").Page(ctx, "")
			return len(p.Items), err
		}},
		{"LoadNode, bad edge", "LoadNode", func(*testing.T) (int, error) {
			res, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "a91")
			return len(res.Edges), err
		}},
		{"LoadNode, bad node item", "LoadNode", func(*testing.T) (int, error) {
			res, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "c77")
			return len(res.Edges), err
		}},
		{"Node.Get", "Node.Get", func(*testing.T) (int, error) {
			_, err := s.students.Get(ctx, "c77")
			return 0, err
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := tc.read(t)
			require.Error(t, err)
			var typeErr *attributevalue.UnmarshalTypeError
			require.ErrorAs(t, err, &typeErr)
			var opErr *adjlist.OpError
			require.ErrorAs(t, err, &opErr)
			assert.Equal(t, tc.op, opErr.Op)
			assert.Zero(t, n, "no partial result")
		})
	}

	// The same reads of partitions without such items still work.
	got, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "b30")
	require.NoError(t, err)
	assert.Len(t, got.Edges, 1)
}

// TestUndecodableChild: Collection.Load and Collection.List report a child
// that does not fit the child type.
func TestUndecodableChild(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	require.NoError(t, s.workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}))
	require.NoError(t, s.projects.Put(ctx, "acme", "0001", Project{Title: "ok"}))
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: map[string]types.AttributeValue{
		"EntityRef": &types.AttributeValueMemberS{Value: "WS#acme"},
		"Detail":    &types.AttributeValueMemberS{Value: "PROJ#0002"},
		"title":     &types.AttributeValueMemberBOOL{Value: true},
	}})
	require.NoError(t, err)

	fam, err := s.projects.Load(ctx, "acme")
	var typeErr *attributevalue.UnmarshalTypeError
	require.ErrorAs(t, err, &typeErr)
	var opErr *adjlist.OpError
	require.ErrorAs(t, err, &opErr)
	assert.Equal(t, "Collection.Load", opErr.Op)
	assert.Empty(t, fam.Children, "no partial result")

	children, err := s.projects.List("acme").Collect(ctx)
	require.ErrorAs(t, err, &typeErr)
	assert.Empty(t, children)
}
