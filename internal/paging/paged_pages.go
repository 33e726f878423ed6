package paging

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/telemetry"
)

// Item is an item, or the key attributes of one, as the SDK holds it.
type Item = map[string]types.AttributeValue

// Key is an item's primary key ([ddbitem.Key]).
type Key = ddbitem.Key

// Ref is an item read keys only: its key and the ends its keys name (an
// edge's source and target ids, a child's parent id and ref).
type Ref struct {
	Key      Key
	From, To string
}

// RefOf is the Ref of keys-only item, ends parsed by split if set; ok is
// false for key skip and what split refuses.
func RefOf(item Item, pkAttr, skAttr string, skip Key, split func(Item) (from, to string, ok bool)) (r Ref, ok bool) {
	r.Key = Key{PK: str(item, pkAttr), SK: str(item, skAttr)}
	ok = r.Key != skip
	if split != nil && ok {
		r.From, r.To, ok = split(item)
	}
	return r, ok
}

// str is item[name]'s key text: a string's, or a number's (a table keyed
// on a number).
func str(item Item, name string) string { return text(item[name]) }

// text is str of an attribute looked up already.
func text(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	}
	return ""
}

// Pager runs one keys-only query page by page, counting requests in *n
// and handing each page's refs to each; a budget (above 0) stops it before
// a request once *n reaches it; done: it read the last page.
type Pager func(ctx context.Context, n *int, budget int, each func([]Ref) error) (done bool, err error)

// Pages is a [Pager] of in on c: setupErr, if set, fails the first
// request (after counting it); ref turns an item into its Ref (false:
// left out). Request errors and setupErr go through wrap; each's do not.
func Pages(ctx context.Context, c dynamodb.QueryAPIClient, in dynamodb.QueryInput, n *int, budget int, setupErr error, wrap func(error) error, ref func(Item) (Ref, bool), each func([]Ref) error) (bool, error) {
	pages := dynamodb.NewQueryPaginator(c, &in)
	opts := telemetry.CallOpts(ctx)
	for pages.HasMorePages() {
		if budget > 0 && *n >= budget {
			return false, nil
		}
		*n++
		if setupErr != nil {
			return false, wrap(setupErr)
		}
		out, err := pages.NextPage(ctx, opts...)
		if err != nil {
			return false, wrap(err)
		}
		refs := make([]Ref, 0, len(out.Items))
		for _, item := range out.Items {
			if r, ok := ref(item); ok {
				refs = append(refs, r)
			}
		}
		if err := each(refs); err != nil {
			return false, err
		}
	}
	return true, nil
}
