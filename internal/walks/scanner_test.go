package walks

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pagedTable answers each segment's Scan with pages of items "s<seg>-<i>",
// per items to a page, the LastEvaluatedKey naming the page's last item.
type pagedTable struct {
	items, per int
	requests   atomic.Int32
	mu         sync.Mutex
	got        []*dynamodb.ScanInput
}

func (p *pagedTable) Scan(_ context.Context, in *dynamodb.ScanInput, _ ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	p.requests.Add(1)
	p.mu.Lock()
	p.got = append(p.got, in)
	p.mu.Unlock()
	seg := aws.ToInt32(in.Segment)
	from := 0
	if k, ok := in.ExclusiveStartKey["PK"].(*types.AttributeValueMemberS); ok {
		_, err := fmt.Sscanf(k.Value, "s%d-%d", new(int), &from)
		if err != nil {
			return nil, err
		}
		from++
	}
	out := &dynamodb.ScanOutput{}
	for i := from; i < min(from+p.per, p.items); i++ {
		out.Items = append(out.Items, map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: fmt.Sprintf("s%d-%d", seg, i)}})
	}
	out.ScannedCount = int32(len(out.Items))
	if from+p.per < p.items {
		out.LastEvaluatedKey = out.Items[len(out.Items)-1]
	}
	return out, nil
}

func pk(item map[string]types.AttributeValue) string {
	return item["PK"].(*types.AttributeValueMemberS).Value
}

func TestRunReadsEverySegmentAndResumes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	api := &pagedTable{items: 5, per: 2} // pages of 2, 2 and 1 per segment
	start := Input{From: Position{Segments: make([]Segment, 3)}}
	start.Request.TableName = aws.String("t")

	// Segment 1 fails on its second page: its first page is kept, the
	// other segments' pages too.
	boom := errors.New("boom")
	var mu sync.Mutex
	seen := map[string]int{}
	var last Progress
	in := start
	in.Progress = func(p Progress) { last = p }
	pos, err := Run(ctx, api, in, func(_ context.Context, seg int, item map[string]types.AttributeValue) (bool, error) {
		if pk(item) == "s1-3" {
			return false, boom
		}
		mu.Lock()
		defer mu.Unlock()
		seen[pk(item)]++
		return seg != 2, nil
	})
	require.ErrorIs(t, err, boom)
	require.NotEmpty(t, pos)
	p, err := Parse(pos)
	require.NoError(t, err)
	require.Len(t, p.Segments, 3)
	assert.Equal(t, Segment{Key: map[string]string{"PK": "s1-1"}}, p.Segments[1], "after its last page handed on in full")
	assert.LessOrEqual(t, last.Matched, last.Scanned)

	// Resumed: the rest of segment 1 from its second page, and whatever
	// the others had not read; every item at least once.
	in = start
	in.From = p
	pos, err = Run(ctx, api, in, func(_ context.Context, _ int, item map[string]types.AttributeValue) (bool, error) {
		mu.Lock()
		defer mu.Unlock()
		seen[pk(item)]++
		return true, nil
	})
	require.NoError(t, err)
	assert.Empty(t, pos)
	assert.Len(t, seen, 15)
	assert.Equal(t, 1, seen["s1-0"], "segment 1's first page is not read again")
	assert.Equal(t, 2, seen["s1-2"], "the page that failed is delivered again")
	for _, r := range api.got {
		assert.Equal(t, "t", aws.ToString(r.TableName))
		assert.Equal(t, int32(3), aws.ToInt32(r.TotalSegments))
		assert.Empty(t, r.ReturnConsumedCapacity, "asked for only with a ReadUnitRate")
	}
}

func TestRunSendsOneRequestPerPage(t *testing.T) {
	t.Parallel()
	api := &pagedTable{items: 5, per: 2}
	in := Input{From: Position{Segments: make([]Segment, 2)}, ReadUnitRate: 1000}
	var calls []Progress
	in.Progress = func(p Progress) { calls = append(calls, p) }
	pos, err := Run(context.Background(), api, in, func(context.Context, int, map[string]types.AttributeValue) (bool, error) { return true, nil })
	require.NoError(t, err)
	assert.Empty(t, pos)
	assert.Equal(t, int32(6), api.requests.Load(), "3 pages per segment")
	require.Len(t, calls, 6, "one call per page")
	end := calls[len(calls)-1]
	assert.Equal(t, 10, end.Scanned)
	assert.Equal(t, 10, end.Matched)
	p, err := Parse(end.Position)
	require.NoError(t, err)
	assert.Equal(t, Position{Segments: []Segment{{Done: true}, {Done: true}}}, p)
	for _, r := range api.got {
		assert.Equal(t, types.ReturnConsumedCapacityTotal, r.ReturnConsumedCapacity)
	}

	// A segment done is not read again.
	api.requests.Store(0)
	in.From = Position{Segments: []Segment{{Done: true}, {}}}
	_, err = Run(context.Background(), api, in, func(context.Context, int, map[string]types.AttributeValue) (bool, error) { return true, nil })
	require.NoError(t, err)
	assert.Equal(t, int32(3), api.requests.Load())
}

// A position whose number key is not a number fails before its
// segment's request.
func TestRunRefusesBadNumberInPosition(t *testing.T) {
	t.Parallel()
	api := &pagedTable{items: 1, per: 1}
	in := Input{From: Position{Segments: []Segment{{Num: map[string]string{"id": "x"}}}}}
	_, err := Run(context.Background(), api, in, func(context.Context, int, map[string]types.AttributeValue) (bool, error) { return true, nil })
	require.EqualError(t, err, `id is a number, got "x"`)
	assert.Zero(t, api.requests.Load())
}

func TestPositionSpelling(t *testing.T) {
	t.Parallel()
	p := Position{Segments: []Segment{{Done: true}, {Key: map[string]string{"PK": "STU#a91", "SK": "PROFILE"}}, {}}}
	s := p.String()
	back, err := Parse(s)
	require.NoError(t, err)
	assert.Equal(t, p, back)

	start, err := Parse("")
	require.NoError(t, err)
	assert.Empty(t, start.Segments)

	for _, bad := range []string{s + "=", s + "\n", s[:len(s)-1] + "_", "!", strconv.Quote(s)} {
		_, err := Parse(bad)
		assert.Error(t, err, bad)
	}
	_, err = Parse(Position{}.String()[:4])
	assert.Error(t, err, "not JSON")
}

func TestPacer(t *testing.T) {
	t.Parallel()
	assert.Nil(t, newPacer(0), "0 is unbounded")
	var none *pacer
	assert.NoError(t, none.wait(context.Background(), 1e9))

	p := newPacer(2.5)
	assert.Equal(t, 3, p.burst, "one second's worth, rounded up")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.Error(t, p.wait(ctx, 10), "waits beyond the burst, and stops with the context")
}

func TestOptionsChecked(t *testing.T) {
	require.NoError(t, CheckRange(1, 0, 0, 0))
	require.EqualError(t, CheckRange(0, 0, 0, 0), "ScanOptions.Segments 0, want 1 to 1000000")
	require.EqualError(t, CheckRange(MaxSegments+1, 0, 0, 0), "ScanOptions.Segments 1000001, want 1 to 1000000")
	require.EqualError(t, CheckRange(1, -1, 0, 0), "ScanOptions.Limit -1")
	require.EqualError(t, CheckRange(1, 0, math.NaN(), 0), "ScanOptions.RequestRate NaN, ReadUnitRate 0")

	pos, ok := Start("", 3)
	require.True(t, ok)
	require.Len(t, pos.Segments, 3)
	from := pos.String()
	assert.Equal(t, 3, Segments(from, 1))
	assert.Equal(t, 1, Segments("", 1))
	_, ok = Start(from, 2)
	assert.False(t, ok, "a position of 3 segments resumes a walk of 3")
	_, ok = Start("not a position", 1)
	assert.False(t, ok)
	_, ok = Start(Position{Segments: []Segment{{Num: map[string]string{"id": "x"}}}}.String(), 1)
	assert.False(t, ok, "a number key that is not a number")
	_, ok = Start(Position{Segments: []Segment{{Num: map[string]string{"id": "-1.5"}}}}.String(), 1)
	assert.True(t, ok)

	in, err := Request("T", "GSI2", 10, expression.Name("PK").BeginsWith("STU#"))
	require.NoError(t, err)
	assert.Equal(t, "T", *in.TableName)
	assert.Equal(t, "GSI2", *in.IndexName)
	assert.Equal(t, int32(10), *in.Limit)
	assert.NotNil(t, in.FilterExpression)
	in, err = Request("T", "", 0, expression.ConditionBuilder{})
	require.NoError(t, err)
	assert.Nil(t, in.IndexName)
	assert.Nil(t, in.Limit)
	assert.Nil(t, in.FilterExpression)
}

func TestAndFilters(t *testing.T) {
	keys := expression.Name("PK").BeginsWith("e#")
	user := expression.Name("is_manager").Equal(expression.Value("1"))
	for _, tc := range []struct {
		name       string
		keys, user expression.ConditionBuilder
		want       string
	}{
		{"neither", expression.ConditionBuilder{}, expression.ConditionBuilder{}, ""},
		{"keys alone", keys, expression.ConditionBuilder{}, "begins_with (#0, :0)"},
		{"user alone", expression.ConditionBuilder{}, user, "#0 = :0"},
		{"both", keys, user, "(begins_with (#0, :0)) AND (#1 = :1)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Request("t", "", 0, And(tc.keys, tc.user))
			require.NoError(t, err)
			assert.Equal(t, tc.want, aws.ToString(in.FilterExpression))
		})
	}
}
