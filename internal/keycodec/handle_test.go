package keycodec

import (
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSortKeySpace(t *testing.T) {
	assert.Equal(t, "STU#", SortKeySpace("STU", ""))
	assert.Equal(t, "PROFILE", SortKeySpace("STU", "PROFILE"))
}

func TestEntityIDs(t *testing.T) {
	fields := []string{"userID", "followerID"}
	require.NoError(t, CheckIDs("follower", fields, []string{"1", "2"}, 2))
	require.Error(t, CheckIDs("follower", fields, []string{"1"}, 2))
	require.Error(t, CheckIDs("follower", fields, []string{"1", ""}, 2))
	require.NoError(t, CheckListIDs("follower", fields, []string{"1"}, 1))
	require.Error(t, CheckListIDs("follower", fields, nil, 1))
}

func TestReaches(t *testing.T) {
	node := Text("STU#").Then(ID(0, "id"))
	edge := Text("ENROLL#CRS#").Then(ID(1, "to"))
	for _, tc := range []struct {
		q    Query
		want Reach
	}{
		{Query{PK: "STU#a91", SKPrefix: "ENROLL#"}, Reachable},
		{Query{PK: "STU#a91"}, Reachable},
		{Query{PK: "CRS#math204", SKPrefix: "ENROLL#"}, OtherPartition},
		{Query{PK: "STU#a91", SKPrefix: "TAUGHT#"}, OtherSortKeys},
		{Query{PK: "x", ShardPKs: []string{"CRS#1", "STU#a91"}}, Reachable},
		{Query{PK: "STU#a91", ShardPKs: []string{"CRS#1"}}, OtherPartition},
	} {
		assert.Equal(t, tc.want, tc.q.Reaches(node, edge), "%+v", tc.q)
	}
}

// TestFillWithTheTableEncoder: a data attribute's value fills a key as
// the table's encoder stores it, as a write renders the key.
func TestFillWithTheTableEncoder(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	epoch := attributevalue.NewEncoder(func(o *attributevalue.EncoderOptions) {
		o.EncodeTime = func(t time.Time) (types.AttributeValue, error) {
			return &types.AttributeValueMemberN{Value: strconv.FormatInt(t.Unix(), 10)}, nil
		}
	})
	parts := []Part{{Kind: Lit, Text: "AT"}, {Kind: Lit, Text: "#"}, {Kind: Attr, Text: "at"}}
	for _, tc := range []struct {
		name string
		enc  *attributevalue.Encoder
		want string
	}{
		{"epoch seconds", epoch, "AT#1767323045"},
		{"the SDK's default", attributevalue.NewEncoder(), "AT#2026-01-02T03:04:05Z"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key, n, err := Parts{Prefixes: &Ctx{}, Enc: tc.enc}.Fill(parts, []any{at})
			require.NoError(t, err)
			assert.Equal(t, 1, n)
			assert.Equal(t, tc.want, key)
		})
	}
}

// TestTakes: the wrong number of values is named, count and names, and
// Fill given too few says so.
func TestTakes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		required, optional []string
		given              int
		want               string
	}{
		{[]string{"parent id", "status"}, nil, 1, "takes 2 values (parent id, status), 1 given"},
		{[]string{"status"}, nil, 2, "takes 1 value (status), 2 given"},
		{[]string{"tour", "region"}, []string{"round", "score"}, 5, "takes 2 to 4 values (tour, region, then optionally round, score), 5 given"},
		{nil, []string{"score"}, 2, "takes 0 to 1 value (optionally score), 2 given"},
		{nil, nil, 1, "takes no values, 1 given"},
	} {
		assert.EqualError(t, Takes(tc.required, tc.optional, tc.given), tc.want)
	}

	child := Parts{Prefixes: &Ctx{Self: "PROJ#", Parent: "WS#"}}
	parts := []Part{{Kind: Parent}, {Kind: Lit, Text: "#"}, {Kind: Attr, Text: "status"}, {Kind: Lit, Text: "#"}, {Kind: Self}}
	assert.Equal(t, []string{"parent id", "status", "child id"}, child.Names(parts))
	_, _, err := child.Fill(parts, []any{"acme"})
	assert.EqualError(t, err, "takes 3 values (parent id, status, child id), 1 given")
	edge := Parts{Prefixes: &Ctx{}, Ends: &Ends{Src: End{}, Dst: End{Parent: "WS#"}}}
	assert.Equal(t, []string{"source id", "target ref", "target ref"}, edge.Names([]Part{{Kind: Source}, {Kind: Target}, {Kind: Self}}))
}
