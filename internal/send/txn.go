// Transactions: these files build adjlist's transactions: the actions of one
// TransactWriteItems, checked against DynamoDB's limits as they are
// added, its commit with retries of conflicts, and its cancellation
// reasons mapped to each action's error; the reads of one
// TransactGetItems. Package adjlist's Tx and ReadTx are thin over it. It
// works on plain items and keys, and knows nothing of item types or
// conditions beyond their built expressions.

package send

// DynamoDB's limits on one transaction.
const (
	// MaxActions is the most actions, or reads, one transaction holds.
	MaxActions = 100
	// MaxSize is the most bytes of items one transaction may write.
	MaxSize = 4 * 1024 * 1024
	// MaxToken is the longest ClientRequestToken DynamoDB accepts.
	MaxToken = 36
)

// key is an item's primary key: an action's or a read's.
type key struct{ pk, sk string }
