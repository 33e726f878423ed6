package adjlist

import (
	"context"
	"fmt"

	"github.com/adjlist/adjlist/internal/paging"
)

// TraverseOptions configures [TwoHop]. The zero value uses
// the defaults.
type TraverseOptions struct {
	// PageSize is how many items DynamoDB evaluates per Query
	// (QueryInput.Limit), on both hops. Smaller pages spend more of the
	// budget on the same graph. Default 0: DynamoDB's 1 MB pages.
	PageSize int32
}

// Peer is one node reached by [TwoHop]: its id and the intermediate nodes
// (targets of the first hop) it was reached through.
type Peer struct {
	// ID is the reached node's id, e.g. "b30", or a child's ref when the
	// second edge starts at a collection's children ([Endpoint]).
	ID string
	// Via lists the intermediate node ids (or refs) linking the start node to this
	// one, in the order visited, e.g. ["cs101", "math204"] for a student
	// who shares both courses with the start node.
	Via []string
}

// TwoHopResult is what [TwoHop] found and what it cost.
type TwoHopResult struct {
	// Peers holds the nodes reached, each once, in the order first reached:
	// intermediate nodes in ascending key order, and for each, its sources
	// in ascending key order (shard by shard for a sharded second edge).
	// The start node is never listed.
	Peers []Peer
	// Requests counts the Query requests made, one per page; it never
	// exceeds the budget.
	Requests int
	// Truncated reports that the budget ran out while pages remained: Peers
	// is then the part found so far, and a Peer's Via may be incomplete.
	Truncated bool
}

// TwoHop walks two edges: forward over first from node from, then in
// reverse over second into each node reached, and returns the nodes found
// at the end, each once, without the start node: with enrolments on both
// hops, "students who share a course with a91"; with enrolments then
// TEACHES (TCH → CRS), "teachers of a91's courses". second must end at
// first's target type. Each request is one page of a keys-only Query, hop 2
// after each page of hop 1:
//
//	hop 1, on the table:  PK = "STU#a91" AND begins_with(SK, "ENROLL#CRS#")
//	hop 2, on the index, for each course reached:
//	  GSI1PK = "CRS#math204" AND begins_with(GSI1SK, "STU#"),
//	  filter begins_with(SK, "ENROLL#CRS#")
//
// A second edge sharded over N partitions costs N Queries per course. budget
// bounds the Query requests in all (at least 1): when it is spent with pages
// left, TwoHop stops and sets TwoHopResult.Truncated, with no error; a
// budget of exactly the pages needed completes. Both hops are eventually
// consistent.
//
// Errors, all [*OpError], before any request: [ErrInvalidKey] for a bad id
// or handle; [ErrInvalidOption] for a budget below 1, a negative PageSize,
// edges on different tables, second not ending at first's target type, or
// a table without an index. A failed request returns its error (wrapping
// the SDK's) with the result found so far.
func TwoHop[E1, E2 any](ctx context.Context, first *Edge[E1], second *Edge[E2], from string, budget int, optFns ...func(*TraverseOptions)) (_ TwoHopResult, err error) {
	return twoHop(ctx, &first.edgeCore, &second.edgeCore, from, budget, optFns)
}

// twoHop is [TwoHop] for edges of any data.
func twoHop(ctx context.Context, first, second *edgeCore, from string, budget int, optFns []func(*TraverseOptions)) (_ TwoHopResult, err error) {
	const op = "TwoHop"
	ctx, sp := first.t.startSpan(ctx, op)
	defer sp.End(&err)
	var opts TraverseOptions
	var res TwoHopResult
	if err := applyOptions(&opts, optFns); err != nil {
		return res, first.t.opErr(op, "", "", err)
	}
	fwd, err := first.outgoing(from)
	switch {
	case err != nil:
	case second.err != nil:
		err = second.err
	case second.t != first.t:
		err = fmt.Errorf("%w: edges %s and %s are on different tables", ErrInvalidOption, describeEdge(first), describeEdge(second))
	case !second.dst.same(first.dst):
		err = fmt.Errorf("%w: edge %s does not end at %s, where edge %s ends", ErrInvalidOption, describeEdge(second), first.dst, describeEdge(first))
	case second.t.errNoIndex() != nil:
		err = second.t.errNoIndex()
	case budget < 1:
		err = fmt.Errorf("%w: budget %d, want at least 1 request", ErrInvalidOption, budget)
	case opts.PageSize < 0:
		err = fmt.Errorf("%w: negative PageSize %d", ErrInvalidOption, opts.PageSize)
	}
	if err != nil {
		return res, first.t.opErr(op, fwd.keys.pk, first.prefix, err)
	}
	skipStart := second.src.same(first.src)
	peers, truncated, err := paging.TwoHop(ctx, fwd.pagers(op, paging.Key{}, opts.PageSize, false)[0], func(target paging.Ref) ([]paging.Pager, error) {
		rev, err := second.incoming(target.To)
		if err != nil {
			return nil, second.t.opErr(op, fwd.keys.pk, target.Key.SK, err)
		}
		return rev.pagers(op, paging.Key{}, opts.PageSize, false), nil
	}, skipStart, from, budget, &res.Requests)
	for _, p := range peers {
		res.Peers = append(res.Peers, Peer(p))
	}
	res.Truncated = truncated
	return res, err
}

// describeEdge names an edge kind for error messages, e.g.
// "ENROLL (STU → CRS)".
func describeEdge(e *edgeCore) string {
	return paging.Kind{Label: e.label, Src: e.src.String(), Dst: e.dst.String()}.String()
}
