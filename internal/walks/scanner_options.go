package walks

import (
	"fmt"
	"math"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/paging"
)

// MaxSegments is the most segments a walk reads in parallel, as Scan's
// TotalSegments allows.
const MaxSegments = 1_000_000

// Segments is from's number of segments (a bad one is left for Start to
// refuse), else def.
func Segments(from string, def int) int {
	if pos, err := Parse(from); err == nil && len(pos.Segments) > 0 {
		return len(pos.Segments)
	}
	return def
}

// CheckRange refuses a walk's settings out of range; the error says
// which, for the caller to wrap in its sentinel.
func CheckRange(segments int, limit int32, requestRate, readUnitRate float64) error {
	switch {
	case segments < 1 || segments > MaxSegments:
		return fmt.Errorf("ScanOptions.Segments %d, want 1 to %d", segments, MaxSegments)
	case limit < 0:
		return fmt.Errorf("ScanOptions.Limit %d", limit)
	case requestRate < 0 || math.IsNaN(requestRate) || readUnitRate < 0 || math.IsNaN(readUnitRate):
		return fmt.Errorf("ScanOptions.RequestRate %v, ReadUnitRate %v", requestRate, readUnitRate)
	}
	return nil
}

// Start is where a walk of segments begins: the position from, or every
// segment from its start when from is ""; ok is false for a string that
// is not a position of that many segments, or whose number keys are not
// numbers.
func Start(from string, segments int) (pos Position, ok bool) {
	pos, err := Parse(from)
	if err != nil || from != "" && len(pos.Segments) != segments {
		return pos, false
	}
	for _, s := range pos.Segments {
		if _, err := paging.StartKey(s.Key, s.Num, ddbexpr.NumberText); err != nil {
			return pos, false
		}
	}
	if from == "" {
		pos.Segments = make([]Segment, segments)
	}
	return pos, true
}

// And is keys AND user, or the one set.
func And(keys, user expression.ConditionBuilder) expression.ConditionBuilder {
	switch {
	case !user.IsSet():
		return keys
	case !keys.IsSet():
		return user
	}
	return keys.And(user)
}

// Request is the Scan every segment of a walk sends; index, filter and
// limit only when set.
func Request(table, index string, limit int32, filter expression.ConditionBuilder) (dynamodb.ScanInput, error) {
	in := dynamodb.ScanInput{TableName: aws.String(table)}
	if filter.IsSet() {
		e, err := expression.NewBuilder().WithFilter(filter).Build()
		if err != nil {
			return in, err
		}
		in.FilterExpression, in.ExpressionAttributeNames, in.ExpressionAttributeValues = e.Filter(), e.Names(), e.Values()
	}
	if limit > 0 {
		in.Limit = aws.Int32(limit)
	}
	if index != "" {
		in.IndexName = aws.String(index)
	}
	return in, nil
}
