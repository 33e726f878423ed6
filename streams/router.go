package streams

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-lambda-go/events"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
)

// Decoder decodes the items of one modelled item type: *adjlist.Node,
// *adjlist.Edge, *adjlist.Collection and *adjlist.Entity are Decoders of
// their NodeItem, EdgeItem, Child and EntityItem, and *adjlist.Table of
// adjlist.TypedItem: every item type the table records, named.
type Decoder[T any] interface {
	Decode(item adjlist.Item) (v T, ok bool, err error)
}

// Event is a record of one modelled item type, decoded.
type Event[T any] struct {
	Record
	// Old and New are the images decoded, nil when the record has none
	// (no OldImage on Insert, no NewImage on Remove, neither with a
	// KEYS_ONLY stream).
	Old, New *T
	// Key is the item decoded from the record's keys alone: its ids, with
	// zero data.
	Key T
}

// Item is the item as the record leaves it, or for a Remove as it was:
// New, else Old, else Key.
func (e Event[T]) Item() T {
	switch {
	case e.New != nil:
		return *e.New
	case e.Old != nil:
		return *e.Old
	}
	return e.Key
}

// ErrUnknownItem reports a record whose item no handler of a [Router]
// knows, when the Router has no [Router.OnUnknown] handler.
var ErrUnknownItem = errors.New("streams: record of an item no handler knows")

// Router hands each record to the handler of its item type. The zero
// Router is ready to use; add handlers with [On] and [Router.OnUnknown]
// before handling records. Handling is safe for concurrent use once the
// handlers are added.
type Router struct {
	routes  []func(ctx context.Context, rec Record) (bool, error)
	unknown func(ctx context.Context, rec Record) error
}

// On routes the records of d's item type to fn: the first handler added
// whose decoder accepts a record's keys gets it. Images whose data does
// not fit T fail the record with the decoder's error, before fn is called.
func On[T any](r *Router, d Decoder[T], fn func(ctx context.Context, ev Event[T]) error) {
	r.routes = append(r.routes, func(ctx context.Context, rec Record) (bool, error) {
		keys := rec.Keys
		if keys == nil { // some sources omit Keys: any image has them
			keys = rec.NewImage
			if keys == nil {
				keys = rec.OldImage
			}
		}
		key, ok, err := d.Decode(clone(keys))
		if !ok || err != nil {
			return ok, err
		}
		ev := Event[T]{Record: rec, Key: key}
		for _, img := range []struct {
			item adjlist.Item
			dst  **T
		}{{rec.OldImage, &ev.Old}, {rec.NewImage, &ev.New}} {
			if img.item == nil {
				continue
			}
			v, ok, err := d.Decode(clone(img.item))
			if err != nil {
				return true, fmt.Errorf("streams: record %s (%s): %w", rec.EventID, rec.Kind, err)
			}
			if ok {
				*img.dst = &v
			}
		}
		return true, fn(ctx, ev)
	})
}

// clone copies an item's top level: decoders may modify what they decode,
// and a record's images are read by more than one.
func clone(item adjlist.Item) adjlist.Item {
	out := make(adjlist.Item, len(item))
	for k, v := range item {
		out[k] = v
	}
	return out
}

// OnUnknown sets the handler of records no other handler takes (items of
// types the model does not declare, or written by another program).
// Without one, such a record fails [Router.Handle] with [ErrUnknownItem].
func (r *Router) OnUnknown(fn func(ctx context.Context, rec Record) error) {
	r.unknown = fn
}

// Handle hands each record, in order, to its handler, stopping at the
// first error (so that the batch is delivered again: Lambda retries it,
// [Reader] does not checkpoint it).
func (r *Router) Handle(ctx context.Context, recs ...Record) error {
	for _, rec := range recs {
		if err := r.handle(ctx, rec); err != nil {
			return err
		}
	}
	return nil
}

func (r *Router) handle(ctx context.Context, rec Record) error {
	for _, route := range r.routes {
		if ok, err := route(ctx, rec); ok || err != nil {
			return err
		}
	}
	if r.unknown != nil {
		return r.unknown(ctx, rec)
	}
	return fmt.Errorf("%w: record %s (%s) of item %v", ErrUnknownItem, rec.EventID, rec.Kind, keyText(rec.Keys))
}

// keyText shows a record's string keys for an error message.
func keyText(keys adjlist.Item) map[string]string {
	out := map[string]string{}
	for k, v := range keys {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			out[k] = v.Value
		case *types.AttributeValueMemberN:
			out[k] = v.Value
		default:
			out[k] = fmt.Sprintf("%T", v)
		}
	}
	return out
}

// HandleLambda is a Lambda function's handler for a DynamoDB stream event
// source: it converts the batch's records ([FromLambda]) and handles them
// in order. Returning its error makes Lambda retry the batch.
//
//	lambda.Start(router.HandleLambda)
func (r *Router) HandleLambda(ctx context.Context, ev events.DynamoDBEvent) error {
	for _, lr := range ev.Records {
		rec, err := FromLambda(lr)
		if err != nil {
			return err
		}
		if err := r.handle(ctx, rec); err != nil {
			return err
		}
	}
	return nil
}
