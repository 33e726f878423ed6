package ddbexpr

// TimeFormat is the layout of the timestamps a handle writes (adjlist's
// Tracking): RFC 3339 in UTC with three fractional digits, so that byte
// order is time order.
const TimeFormat = "2006-01-02T15:04:05.000Z"

// Tracked names the attributes a handle writes on its items besides their
// data; "" is one it does not write.
type Tracked struct {
	Version, CreatedAt, UpdatedAt, Expiry string
}
