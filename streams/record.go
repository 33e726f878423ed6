package streams

import (
	"errors"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	streamtypes "github.com/aws/aws-sdk-go-v2/service/dynamodbstreams/types"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/internal/ddbjson"
)

// Kind is what a record did to its item: the stream's eventName.
type Kind string

// The three kinds of stream record.
const (
	Insert Kind = "INSERT" // a new item; NewImage only
	Modify Kind = "MODIFY" // an item changed; OldImage and NewImage
	Remove Kind = "REMOVE" // an item deleted; OldImage only
)

// Record is one DynamoDB Streams record, from either source, with its
// images as the DynamoDB API's attribute values. Which images are present
// depends on the stream's view type (NEW_AND_OLD_IMAGES gives both).
type Record struct {
	// EventID identifies the record, e.g. "7de3041dd709b024af6f29e4fa13d34c".
	EventID string
	// Kind is Insert, Modify or Remove.
	Kind Kind
	// SequenceNumber orders the records of one item, as a decimal string
	// of 21 to 40 digits, e.g. "000000000000000000001".
	SequenceNumber string
	// Keys is the item's primary key; OldImage and NewImage the item
	// before and after, nil when the view type or the kind has none.
	Keys, OldImage, NewImage adjlist.Item
	// Shard is the id of the shard it was read from by [Reader]; empty for
	// records delivered to Lambda, which does not say.
	Shard string
}

// ErrMalformedRecord reports a stream record this package cannot read: an
// unknown eventName or an attribute value of no DynamoDB type.
var ErrMalformedRecord = errors.New("streams: malformed record")

func kindOf(name string) (Kind, error) {
	switch k := Kind(name); k {
	case Insert, Modify, Remove:
		return k, nil
	}
	return "", fmt.Errorf("%w: eventName %q", ErrMalformedRecord, name)
}

// FromStreams converts a record read with the SDK's dynamodbstreams client
// (GetRecords), its images converted with attributevalue's
// FromDynamoDBStreamsMap. shard is the id of the shard it came from.
func FromStreams(r streamtypes.Record, shard string) (Record, error) {
	k, err := kindOf(string(r.EventName))
	if err != nil {
		return Record{}, err
	}
	rec := Record{EventID: aws.ToString(r.EventID), Kind: k, Shard: shard}
	if c := r.Dynamodb; c != nil {
		rec.SequenceNumber = aws.ToString(c.SequenceNumber)
		for _, img := range []struct {
			from map[string]streamtypes.AttributeValue
			to   *adjlist.Item
		}{{c.Keys, &rec.Keys}, {c.OldImage, &rec.OldImage}, {c.NewImage, &rec.NewImage}} {
			if img.from == nil {
				continue
			}
			if *img.to, err = attributevalue.FromDynamoDBStreamsMap(img.from); err != nil {
				return Record{}, fmt.Errorf("%w: %w", ErrMalformedRecord, err)
			}
		}
	}
	return rec, nil
}

// FromLambda converts a record delivered to a Lambda function
// (aws-lambda-go's events.DynamoDBEventRecord).
func FromLambda(r events.DynamoDBEventRecord) (Record, error) {
	k, err := kindOf(r.EventName)
	if err != nil {
		return Record{}, err
	}
	rec := Record{EventID: r.EventID, Kind: k, SequenceNumber: r.Change.SequenceNumber}
	for _, img := range []struct {
		from map[string]events.DynamoDBAttributeValue
		to   *adjlist.Item
	}{{r.Change.Keys, &rec.Keys}, {r.Change.OldImage, &rec.OldImage}, {r.Change.NewImage, &rec.NewImage}} {
		if img.from == nil {
			continue
		}
		if *img.to, err = lambdaMap(img.from); err != nil {
			return Record{}, err
		}
	}
	return rec, nil
}

// lambdaMap converts an image of a Lambda stream record, which carries the
// same DynamoDB JSON the SDK's types do.
func lambdaMap(m map[string]events.DynamoDBAttributeValue) (adjlist.Item, error) {
	item, err := ddbjson.MapToSDK(m)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrMalformedRecord, err)
	}
	return item, nil
}
