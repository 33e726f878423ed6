package adjlist

import "github.com/aws/aws-sdk-go-v2/aws"

// ReadOptions configures a read of items by key or of a table partition:
// the optFns of [Node.Get], [Edge.Get], [Collection.Get], [Entity.Get], [Node.GetMany],
// [Collection.GetMany], [Entity.GetMany], [Edge.Hydrate], [LoadNode],
// [Collection.Load], [ItemCounter.Get], of a [Query]'s All, Collect, Count and Page, and of
// [AllTypes] for [Load] and [PageIndex] (the strongly consistent form of
// [LoadPartition]). The zero value is an eventually consistent read; reads
// on a global secondary index are always eventually consistent.
type ReadOptions struct {
	// ConsistentRead asks DynamoDB for a strongly consistent read
	// (ConsistentRead=true on the GetItem, on each table's
	// KeysAndAttributes of a BatchGetItem, or on each Query page): it
	// returns every write acknowledged before it, and costs twice the
	// read capacity. Default false.
	ConsistentRead bool

	err error // a nil option function, refused by the read before any request
}

// Consistent is the read option for a strongly consistent read, e.g.
// students.Get(ctx, "a91", adjlist.Consistent).
func Consistent(o *ReadOptions) { o.ConsistentRead = true }

// readOptions applies optFns.
func readOptions(optFns []func(*ReadOptions)) ReadOptions {
	var o ReadOptions
	o.err = applyOptions(&o, optFns)
	return o
}

// consistentRead is the request field for o: nil (DynamoDB's default,
// eventually consistent) or a shared true.
func (o ReadOptions) consistentRead() *bool {
	if o.ConsistentRead {
		return strong
	}
	return nil
}

// strong is the shared ConsistentRead=true: requests only read it.
var strong = aws.Bool(true)
