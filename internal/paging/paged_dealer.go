package paging

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Sink is the slice of one item type that a target of a read of several
// item types fills ([Into]).
type Sink interface {
	// Take appends item if it is of the type; skAV is its sort key
	// attribute, which the Dealer has looked up already.
	Take(item Item, skAV types.AttributeValue) (ok bool, err error)
	Grow(n int) // makes room for n more
	Reset()     // empties the slice
}

// Dealer hands a read's items to the first of its sinks that takes each,
// or counts it in other. A sink whose sort keys all start with a lead the
// item's does not is not offered it; the same typing counts each page's
// items per sink ([Dealer.Fetched]), so that slices grow once per page.
type Dealer struct {
	skAttr string
	other  *int
	typing []typing  // per sink
	buf    [4]typing // typing's storage for up to 4 sinks
}

// typing is one sink's lead ("": not known) and its count of a page's
// items it is the first that may take.
type typing struct {
	sink Sink
	lead string
	n    int
}

// NewDealer is the Dealer of items with sort key skAttr, counting the
// items no sink takes in *other.
func NewDealer(skAttr string, other *int) *Dealer {
	d := &Dealer{skAttr: skAttr, other: other}
	d.typing = d.buf[:0]
	return d
}

// Add adds s, whose sort keys all start with lead ("": not known).
func (d *Dealer) Add(s Sink, lead string) {
	d.typing = append(d.typing, typing{sink: s, lead: lead})
}

// typeOf is the first sink from i on that sort key sk does not rule out.
// An item without sort key text rules out none: a self-keyed node's
// decoder takes one by its partition key alone.
func (d *Dealer) typeOf(sk string, i int) int {
	for ; i < len(d.typing); i++ {
		if sk == "" || strings.HasPrefix(sk, d.typing[i].lead) {
			return i
		}
	}
	return i
}

// Fetched grows each sink's slice by the page's items typed as its
// (likelyType): never more than the page's items in all.
func (d *Dealer) Fetched(items []Item) {
	for i := range d.typing {
		d.typing[i].n = 0
	}
	for _, item := range items {
		if i := d.likelyType(str(item, d.skAttr)); i < len(d.typing) {
			d.typing[i].n++
		}
	}
	for _, ty := range d.typing {
		if ty.n > 0 {
			ty.sink.Grow(ty.n)
		}
	}
}

// likelyType is the sink sort key sk most likely goes to: the first
// whose lead it starts with, a known lead before an unknown one.
func (d *Dealer) likelyType(sk string) int {
	guess := len(d.typing)
	for i, ty := range d.typing {
		switch {
		case !strings.HasPrefix(sk, ty.lead):
		case ty.lead != "":
			return i
		default:
			guess = min(guess, i)
		}
	}
	return guess
}

// Deal hands item to the first sink that takes it, or counts it in other.
func (d *Dealer) Deal(item Item) error { return d.DealAt(item, item[d.skAttr]) }

// DealAt is [Dealer.Deal] of item whose sort key attribute the caller
// has looked up already: skAV is item[skAttr].
func (d *Dealer) DealAt(item Item, skAV types.AttributeValue) error {
	sk := text(skAV)
	for i := d.typeOf(sk, 0); i < len(d.typing); i = d.typeOf(sk, i+1) {
		if ok, err := d.typing[i].sink.Take(item, skAV); ok || err != nil {
			return err
		}
	}
	*d.other++
	return nil
}
