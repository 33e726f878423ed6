// Package streams turns DynamoDB Streams records of an adjlist table into
// typed change events, and reads a table's stream for local development and
// tests.
//
// It is a package of its own so that services that do not use streams do
// not compile its dependencies (the Streams API client and aws-lambda-go's
// event types).
//
// # Events
//
// A [Record] is one stream record as either source gives it: read with the
// SDK's dynamodbstreams client ([FromStreams]) or delivered to a Lambda
// function ([FromLambda], [Router.HandleLambda]). A [Router] hands each
// record to the handler of the modelled item type its keys belong to
// ([On]: any adjlist handle, Node, Edge, Collection or Entity,
// decodes its own items, and a Table those of every type it records), as an [Event] with the old and new images decoded to the Go type
// and the ids parsed from the keys:
//
//	r := new(streams.Router)
//	streams.On(r, enrolled, func(ctx context.Context, ev streams.Event[adjlist.EdgeItem[Enrollment]]) error {
//		e := ev.Item()
//		return counter.Apply(ctx, ev.SequenceNumber, e.From, e.To, ev.Kind != streams.Remove)
//	})
//	r.OnUnknown(func(ctx context.Context, rec streams.Record) error { ... })
//
// Records of items no handler knows are never dropped silently: they go to
// the [Router.OnUnknown] handler, or, without one, fail the batch with
// [ErrUnknownItem].
//
// # Reading a stream
//
// [Reader] reads a table's stream shard by shard, parents before children,
// saving a [Checkpoint] after each batch its handler accepts, so a
// restarted reader resumes where the last one stopped; it calls the same
// handler a Lambda function would get. DynamoDB Local serves the Streams
// API on its own endpoint; [adjlist.CreateTableOptions] can enable the
// stream.
//
// # Delivery and ordering
//
// DynamoDB Streams writes each change of an item once, in order per item;
// readers (this one, Lambda) deliver at least once: a batch whose handler
// failed, or that was handled but not checkpointed before a crash, is
// delivered again. Handlers must therefore be idempotent, as
// [adjlist.ItemCounter.Apply] is.
package streams
