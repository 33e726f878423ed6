// Package adjlist models relationships in Amazon DynamoDB with the
// adjacency-list pattern: one table, node items and edge items told apart by
// their keys, and an inverted global secondary index so that every edge,
// written once, reads cheaply in both directions.
//
// # Layout
//
// With the default [Options] (PK, SK, GSI1 on GSI1PK/GSI1SK), the
// students↔courses example stores:
//
//	PK           SK                   GSI1PK        GSI1SK    attributes
//	STU#a91      PROFILE                                      name, year, major
//	STU#a91      ENROLL#CRS#math204   CRS#math204   STU#a91   enrolledOn, grade
//	STU#a91      ENROLL#CRS#cs101     CRS#cs101     STU#a91   enrolledOn, grade
//	CRS#math204  METADATA                                     title, credits, term
//
// A [Node] handle reads and writes node items; an [Edge] handle writes edge
// items (guarded by attribute_not_exists, so an edge is never written twice)
// and reads them forward ([Edge.From], a Query on the table) or in reverse
// ([Edge.To], a Query on the index). [LoadNode] reads a node and its edges in
// one Query.
//
// # Item collections
//
// A [Collection] models one-to-many: a parent node's item and its children
// share the parent's partition key (a SaaS design's workspaces and projects):
//
//	EntityRef  Detail           attributes
//	WS#acme    META             displayName, region, seatLimit
//	WS#acme    PROJ#2026-0007   title, status, createdBy
//	WS#acme    PROJ#2026-0042   title, status, createdBy
//
// [Collection.Load] reads the parent and every child in one Query;
// [Collection.List] lists the children, newest first with [Query.Desc] when
// their ids sort by creation ([PaddedID], ULIDs).
//
// # Layouts
//
// [Options] renames every key attribute (EntityRef/Detail, GSI_PK/GSI_SK)
// and supports both inverted-index layouts: explicit index keys on edge
// items, or an index keyed on the table's sort key. Edges may be unlabelled
// (SK = "COURSE#Math") and node items self-keyed (PK = SK). With a KEYS_ONLY
// index, [Edge.Hydrate] and [Node.GetMany] fetch full items with
// BatchGetItem. [Describe] renders a model as Markdown tables;
// [DescribeModel] returns the same model as data ([Model]), which
// [Model.Mermaid] draws as a diagram and the subpackages workbench (a NoSQL
// Workbench data model) and cloudformation (an AWS::DynamoDB::Table
// template) export.
//
// # Secondary indexes
//
// [Options].Indexes declares more global and local secondary indexes, each
// a value of the model ([Index]): keys derived from each item type's ids
// and data by templates ([IndexKeys], [Compose]: "STATUS#ACTIVE"), written
// on every put and kept in step by [Collection.Update] and [Edge.Update] in
// the same request, or native multi-attribute keys on attributes the items
// already carry. Several item types may share an index (overloading);
// items missing a key's data are not in it (sparse). ByIndex
// ([Node.ByIndex], [Edge.ByIndex], [Collection.ByIndex]) reads one index
// partition as a [Query]; [PageIndex] reads the item types sharing one
// together.
//
// # Keys
//
// Keys are built by the handles ([Node.Key], [Edge.Key]) from programmer-chosen names
// (node types, edge labels, item markers: ASCII letters, digits, '_', '-',
// '.') and user-supplied ids (any non-empty UTF-8). '%' and '#' in ids are
// percent-encoded, so no id can forge a separator, collide with another id,
// or fall into another type's begins_with range. Invalid input is refused
// with [ErrInvalidKey] before any request is sent.
//
// # Reading
//
// Every read that can span pages returns a [Query]: [Query.All] is an
// iter.Seq2 over all items on top of the SDK's Query paginator, and
// [Query.Page] fetches one page and an opaque cursor for the next, for
// request/response handlers.
//
// # Consistency
//
// Reads on the table are eventually consistent by default
// ([Query.ConsistentRead] makes them strong). Reads on the index are always
// eventually consistent: a new edge may take a moment to show up in
// [Edge.To]. DynamoDB Local shows no such lag; real DynamoDB does.
//
// # Conditions and optimistic locking
//
// Every single-item write ([Node.Put], [Node.Replace], [Node.Update],
// [Node.Delete], the same on [Edge], [Collection] and [Entity], in a [Tx]
// too ([InTx]))
// takes [WriteOptions]: [If] ANDs a condition of the caller's after the
// library's guard ("(attribute_exists (#0)) AND (#1 = :0)"), and its
// failure is [ErrConditionFailed], told apart from the guard's
// [ErrExists] or [ErrNotFound] with the stored item the same response
// returns. [Tracking].Version turns on optimistic locking per handle: 1 on
// create, one more on every update, each write conditioned on the version
// read ([IfVersion]), [ErrVersionConflict] when another writer got there
// first.
//
// # Writing many
//
// [Tx] commits up to 100 actions atomically (TransactWriteItems);
// [Edge.Put] with [WriteOptions].CheckEnds creates an edge only if both
// nodes exist and
// [Edge.Move] replaces one atomically. [Node.PutMany], [Edge.PutMany],
// [Collection.PutMany] and [Entity.PutMany] write in bulk with
// BatchWriteItem, and
// [Edge.DeleteMany], [Node.DeleteMany] and [Collection.DeleteMany] delete
// so, listing anything left unwritten; [Node.GetMany],
// [Collection.GetMany] and [Edge.Hydrate] read with BatchGetItem.
//
// # Graphs at scale
//
// [EdgeOptions].Shards spreads a popular target's incoming edges over
// several index partitions and merges them back on read; [TwoHop] walks
// two edges under a request budget; [DeleteNode] removes
// a node with its edges in both directions and its item collection,
// resumably; [WithUsage] reports the requests and capacity any call cost.
//
// # Errors
//
// Errors are [*OpError] values naming the operation, table and keys, and
// wrap a sentinel ([ErrNotFound], [ErrEdgeExists], [ErrExists],
// [ErrInvalidKey], [ErrKeyAttribute], [ErrItemTooLarge], [ErrInvalidCursor],
// [ErrIndexConsistentRead], [ErrUnprocessed], [ErrDuplicateKey],
// [ErrNodeNotFound], [ErrTxConflict], [ErrTxLimit], [ErrNotVisible],
// [ErrConditionFailed], [ErrVersionConflict], [ErrInvalidOption]) and/or the SDK's error, so both errors.Is and
// errors.As (e.g. *types.ConditionalCheckFailedException, smithy.APIError)
// work.
// Limits are checked before any request; RELIABILITY.md lists every
// guarantee with its test.
//
// # Options
//
// Every constructor and call that takes options does so as optFns, each a
// func of a pointer to the call's Options struct, applied in order to the
// zero value (each field documents its default). A nil option function
// is [ErrInvalidOption]: a call returns it before any request; a
// constructor ([NewTable], [NewNode], [NewEdge], [NewCollection],
// [NewEntity]) records it on the handle, so every call on the handle
// returns it and [Table.Check] reports it.
package adjlist
