// Package adjlist models relationships in Amazon DynamoDB with the
// adjacency-list pattern: one table, node items and edge items told apart
// by their keys, and an inverted global secondary index so that an edge,
// written once, reads in both directions. With the default [Options]:
//
//	PK           SK                   GSI1PK        GSI1SK    attributes
//	STU#a91      PROFILE                                      name, year
//	STU#a91      ENROLL#CRS#math204   CRS#math204   STU#a91   enrolledOn
//	CRS#math204  METADATA                                     title, credits
//
// # Which type for which job
//
//   - [Table] ([NewTable], [Options]): the table, its key attributes and
//     indexes; [CreateTable] creates it.
//   - [Node] ([NewNode]): one item per id, e.g. PK "STU#a91", SK "PROFILE".
//   - [Edge] ([NewEdge]): a relationship, SK "ENROLL#CRS#math204" in the
//     source's partition; [Edge.From] reads forward on the table,
//     [Edge.To] in reverse on the index.
//   - [Collection] ([NewCollection], [NewNestedCollection]): one-to-many
//     children in their parent's partition, SK "PROJ#2026-0042".
//   - [Entity] ([NewEntity], [Template]): keys spelled your own way,
//     "u#{userID}#follower".
//   - [ItemCounter] ([NewItemCounter]): counts of items by group, kept at
//     write time or from a stream.
//   - [Query] and [Page]: every read that can span pages; [Query.All]
//     iterates, [Query.Page] returns a cursor.
//   - [LoadNode], [LoadPartition], [PagePartition], [Load]: several item
//     types of one partition in one Query; [PageIndex] of one index
//     partition; [TwoHop] walks two edges.
//   - [IndexKeys], [Template], [Index]: secondary indexes with keys derived
//     from ids and data ("STATUS#ACTIVE"), or native ones.
//   - [WriteOptions] ([If], [IfVersion], [InTx], [Expires]) and [Tracking]:
//     conditions, optimistic locking, timestamps, expiry.
//   - [Tx] ([NewTx]): atomic writes; [ReadTx] ([NewReadTx]): atomic reads.
//   - PutMany, DeleteMany, GetMany of each handle ([BulkResult]): batches.
//   - [DeleteNode], [DeleteChild]: a node or child with what hangs off it.
//   - [Scan], [Migrate], [Verify], [Repair]: whole-table walks.
//   - [Describe], [DescribeModel] ([Model]), [Model.Mermaid]: the model as
//     documentation; packages workbench and cloudformation export it.
//   - [WithUsage] ([Usage]): the requests and capacity a call cost.
//
// The guides in docs/ (modelling, reads, writes, operations, testing,
// performance) explain each job in turn.
//
// # Results
//
// A verb given one item's ids returns that item's data: Get and Update
// return N, E, C or T on every handle, since the caller already holds the
// ids. A verb that reads several items returns the handle's item type, the
// ids decoded from the keys with the data: [NodeItem], [EdgeItem],
// [Child] or [EntityItem] from the queries (List, From, To, ByIndex) and
// from GetMany (in the order of the ids given, those with no item left
// out).
//
// # Keys
//
// Handles build every key ([Node.Key], [Edge.Key]) from names (node types,
// edge labels, markers: 1-64 ASCII letters, digits, '_', '-', '.') and ids
// (any non-empty UTF-8, '%' and '#' percent-encoded), so no id forges a
// separator or falls into another type's begins_with range.
//
// # Errors
//
// Errors of calls that read or write the table are [*OpError] values
// naming the operation, table and keys (the key helpers, Key and Ref,
// return the [*KeyError] itself), and wrap a sentinel for errors.Is ([ErrNotFound],
// [ErrExists], [ErrInvalidKey], [ErrInvalidOption], [ErrConditionFailed],
// [ErrVersionConflict], [ErrUnprocessed], ...) and/or the SDK's error for
// errors.As. Invalid input is refused before any request. RELIABILITY.md
// lists every guarantee with its test.
//
// # Options
//
// Constructors and calls take options as optFns, each a func of a pointer
// to the call's Options struct, applied in order; each field documents
// the default a field left unset gets. A nil option function is
// [ErrInvalidOption]: a call returns it before any request; a constructor
// records it on the handle, so every call on the handle returns it and
// [Table.Check] reports it.
package adjlist
