package send

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeClient is an in-memory table "t" keyed by "PK" that processes at
// most keep keys or writes per call (all when keep < 0) and leaves the
// rest unprocessed, recording the size of every request.
type fakeClient struct {
	t     *testing.T
	mu    sync.Mutex
	items map[string]Item
	keep  int
	sizes []int
	err   error
}

func pkItem(pk string) Item { return Item{"PK": &types.AttributeValueMemberS{Value: pk}} }
func keyOf(item Item) string {
	s, _ := item["PK"].(*types.AttributeValueMemberS)
	if s == nil {
		return ""
	}
	return s.Value
}

// take records a request of n keys, all distinct, and returns how many to
// process.
func (c *fakeClient) take(keys []string) (int, error) {
	c.sizes = append(c.sizes, len(keys))
	seen := map[string]bool{}
	for _, k := range keys {
		assert.False(c.t, seen[k], "DynamoDB refuses a key twice in one request: %s", k)
		seen[k] = true
	}
	if c.keep < 0 {
		return len(keys), c.err
	}
	return min(c.keep, len(keys)), c.err
}

func (c *fakeClient) BatchGetItem(_ context.Context, in *dynamodb.BatchGetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	ka := in.RequestItems["t"]
	var pks []string
	for _, k := range ka.Keys {
		pks = append(pks, keyOf(k))
	}
	n, err := c.take(pks)
	if err != nil {
		return nil, err
	}
	out := &dynamodb.BatchGetItemOutput{Responses: map[string][]Item{}}
	for _, pk := range pks[:n] {
		if item, ok := c.items[pk]; ok {
			out.Responses["t"] = append(out.Responses["t"], item)
		}
	}
	if n < len(pks) {
		out.UnprocessedKeys = map[string]types.KeysAndAttributes{"t": {Keys: ka.Keys[n:]}}
	}
	return out, nil
}

func (c *fakeClient) BatchWriteItem(_ context.Context, in *dynamodb.BatchWriteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	reqs := in.RequestItems["t"]
	var pks []string
	for _, r := range reqs {
		pks = append(pks, keyOf(writeItem(r)))
	}
	n, err := c.take(pks)
	if err != nil {
		return nil, err
	}
	for i, r := range reqs[:n] {
		if r.PutRequest != nil {
			c.items[pks[i]] = r.PutRequest.Item
		} else {
			delete(c.items, pks[i])
		}
	}
	out := &dynamodb.BatchWriteItemOutput{}
	if n < len(reqs) {
		out.UnprocessedItems = map[string][]types.WriteRequest{"t": reqs[n:]}
	}
	return out, nil
}

// noWait is a backoff that records its attempts and does not wait.
type noWait struct {
	mu       sync.Mutex
	attempts []int
}

func (b *noWait) BackoffDelay(attempt int, _ error) (time.Duration, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.attempts = append(b.attempts, attempt)
	return 0, nil
}

func pks(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("k%03d", i)
	}
	return out
}

func TestBatchGet(t *testing.T) {
	stored := map[string]Item{}
	for _, pk := range pks(300) {
		stored[pk] = Item{"PK": pkItem(pk)["PK"], "v": &types.AttributeValueMemberS{Value: "x" + pk}}
	}
	tests := []struct {
		name         string
		keys         []string
		keep         int
		maxAttempts  int
		wantSizes    []int
		wantAttempts []int
		wantErr      error
		wantAt       string
	}{
		{"100 distinct keys per request", pks(250), -1, 10, []int{100, 100, 50}, nil, nil, ""},
		{"duplicates asked for once", append(pks(3), pks(3)...), -1, 10, []int{3}, nil, nil, ""},
		{"unprocessed keys resent", pks(5), 2, 10, []int{5, 3, 1}, []int{1, 2}, nil, ""},
		{"last chunk gives up", pks(5), 0, 3, []int{5, 5, 5}, []int{1, 2}, errs.ErrUnprocessed, ""},
		{"full chunk gives up at its last key", pks(150), 0, 2, []int{100, 100}, []int{1}, errs.ErrUnprocessed, "k099"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeClient{t: t, items: stored, keep: tt.keep}
			b := &noWait{}
			found, at, err := BatchGet(context.Background(), &Table{Client: c, Name: "t", Backoff: b, MaxAttempts: tt.maxAttempts}, tt.keys, nil, pkItem, keyOf)
			assert.Equal(t, tt.wantSizes, c.sizes)
			assert.Equal(t, tt.wantAttempts, b.attempts)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				assert.Nil(t, found)
				assert.Equal(t, tt.wantAt, at)
				return
			}
			require.NoError(t, err)
			for _, k := range tt.keys {
				assert.Equal(t, stored[k], found[k], k)
			}
		})
	}
}

func TestBatchGetSkipsMissing(t *testing.T) {
	c := &fakeClient{t: t, items: map[string]Item{"a": pkItem("a")}, keep: -1}
	found, _, err := BatchGet(context.Background(), &Table{Client: c, Name: "t", MaxAttempts: 1}, []string{"a", "b"}, nil, pkItem, keyOf)
	require.NoError(t, err)
	assert.Equal(t, map[string]Item{"a": pkItem("a")}, found)
}

func TestBatchWrite(t *testing.T) {
	put := func(pk string) types.WriteRequest {
		return types.WriteRequest{PutRequest: &types.PutRequest{Item: pkItem(pk)}}
	}
	del := func(pk string) types.WriteRequest {
		return types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: pkItem(pk)}}
	}
	puts := func(n int) []types.WriteRequest {
		var out []types.WriteRequest
		for _, pk := range pks(n) {
			out = append(out, put(pk))
		}
		return out
	}
	tests := []struct {
		name        string
		reqs        []types.WriteRequest
		keep        int
		maxAttempts int
		want        Result[string]
		wantSizes   []int
		wantErr     error
		wantAt      string
	}{
		{"25 per request", puts(60), -1, 10, Result[string]{Written: 60, Requests: 3}, []int{25, 25, 10}, nil, ""},
		{"unprocessed resent", puts(5), 2, 10, Result[string]{Written: 5, Requests: 3}, []int{5, 3, 1}, nil, ""},
		{"unprocessed listed", puts(5), 2, 2, Result[string]{Written: 4, Requests: 2, Unwritten: []string{"k004"}}, []int{5, 3}, errs.ErrUnprocessed, ""},
		{"a put and a delete of one item", append(puts(3), del("k001")), -1, 10, Result[string]{}, nil, errs.ErrDuplicateKey, "k001"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &fakeClient{t: t, items: map[string]Item{}, keep: tt.keep}
			var progress []int
			res, at, err := BatchWrite(context.Background(), &Table{Client: c, Name: "t", Backoff: &noWait{}, MaxAttempts: tt.maxAttempts}, tt.reqs, 1, func(written, total int) {
				assert.Equal(t, len(tt.reqs), total)
				progress = append(progress, written)
			}, keyOf)
			assert.Equal(t, tt.want, res)
			assert.Equal(t, tt.wantSizes, c.sizes)
			assert.Equal(t, tt.wantAt, at)
			if tt.wantErr != nil {
				require.ErrorIs(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Len(t, c.items, len(tt.reqs))
			assert.IsIncreasing(t, progress)
		})
	}
}

func TestBatchWriteJoinsChunkErrors(t *testing.T) {
	boom := errors.New("boom")
	c := &fakeClient{t: t, items: map[string]Item{}, keep: -1, err: boom}
	reqs := make([]types.WriteRequest, 30)
	for i, pk := range pks(30) {
		reqs[i] = types.WriteRequest{DeleteRequest: &types.DeleteRequest{Key: pkItem(pk)}}
	}
	res, _, err := BatchWrite(context.Background(), &Table{Client: c, Name: "t", Backoff: &noWait{}, MaxAttempts: 3}, reqs, 4, nil, keyOf)
	require.ErrorIs(t, err, boom)
	assert.Equal(t, 2, res.Requests, "an SDK error is not resent")
	assert.Zero(t, res.Written)
	assert.ElementsMatch(t, pks(30), res.Unwritten)
}

func TestSleep(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for name, tt := range map[string]struct {
		ctx  context.Context
		d    time.Duration
		want error
	}{
		"no wait":                  {context.Background(), 0, nil},
		"a short wait":             {context.Background(), time.Millisecond, nil},
		"cancelled, no wait":       {cancelled, 0, context.Canceled},
		"cancelled, a long wait":   {cancelled, time.Hour, context.Canceled},
		"cancelled, negative wait": {cancelled, -time.Second, context.Canceled},
	} {
		assert.ErrorIs(t, Sleep(tt.ctx, tt.d), tt.want, name)
	}
}

type failingBackoff struct{ err error }

func (b failingBackoff) BackoffDelay(int, error) (time.Duration, error) { return 0, b.err }

func TestWaitGivesBackoffsError(t *testing.T) {
	boom := errors.New("no more")
	require.ErrorIs(t, Wait(context.Background(), failingBackoff{boom}, 1, nil), boom)
}
