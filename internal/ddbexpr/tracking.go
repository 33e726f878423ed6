package ddbexpr

import (
	"fmt"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/errs"
)

// Tracking is a handle's adjlist.Tracking, checked by NewTracking: what
// its writes add to an item besides its data.
type Tracking struct {
	Tracked
	Clock    func() time.Time // never nil
	Lifetime time.Duration
}

// NewTracking checks n's names against the key attributes (isKey) and
// each other, and the lifetime; a nil clock is time.Now. It returns the
// Tracking built even when refused.
func NewTracking(n Tracked, clock func() time.Time, lifetime time.Duration, isKey func(string) bool) (Tracking, error) {
	tr := Tracking{Tracked: n, Clock: clock, Lifetime: lifetime}
	if tr.Clock == nil {
		tr.Clock = time.Now
	}
	seen := map[string]string{}
	for _, a := range [...]struct{ field, name string }{{"Version", n.Version}, {"CreatedAt", n.CreatedAt}, {"UpdatedAt", n.UpdatedAt}, {"Expiry", n.Expiry}} {
		switch {
		case a.name == "":
		case isKey(a.name):
			return tr, fmt.Errorf("%w: Tracking.%s %q is a key attribute", errs.ErrInvalidOption, a.field, a.name)
		case seen[a.name] != "":
			return tr, fmt.Errorf("%w: Tracking.%s and %s are both %q", errs.ErrInvalidOption, seen[a.name], a.field, a.name)
		default:
			seen[a.name] = a.field
		}
	}
	switch {
	case lifetime < 0:
		return tr, fmt.Errorf("%w: Tracking.Lifetime %v", errs.ErrInvalidOption, lifetime)
	case lifetime > 0 && n.Expiry == "":
		return tr, fmt.Errorf("%w: Tracking.Lifetime without Tracking.Expiry", errs.ErrInvalidOption)
	}
	return tr, nil
}

// Maintained reports whether name is an attribute the handle writes
// itself, which updates may not name.
func (tr *Tracking) Maintained(name string) bool {
	return name != "" && (name == tr.Version || name == tr.CreatedAt || name == tr.UpdatedAt)
}

// Stamp adds what the handle tracks to an item being put, before its
// index keys are derived: version 1 on a create, createdAt on a create or
// when the item has none (a read-modify-replace keeps the value read),
// updatedAt, the expiry (the write's own, else the lifetime's).
func (tr *Tracking) Stamp(item Item, create bool, expiresAt time.Time) error {
	if tr.Tracked == (Tracked{}) {
		if !expiresAt.IsZero() {
			return noExpiry()
		}
		return nil
	}
	now := tr.Clock()
	at, err := tr.ExpiresAt(expiresAt, now, true)
	if err != nil {
		return err
	}
	if tr.Version != "" && create {
		item[tr.Version] = &types.AttributeValueMemberN{Value: "1"}
	}
	if tr.CreatedAt != "" {
		if v, has := item[tr.CreatedAt].(*types.AttributeValueMemberS); create || !has || v.Value == "" {
			item[tr.CreatedAt] = &types.AttributeValueMemberS{Value: now.UTC().Format(TimeFormat)}
		}
	}
	if tr.UpdatedAt != "" {
		item[tr.UpdatedAt] = &types.AttributeValueMemberS{Value: now.UTC().Format(TimeFormat)}
	}
	if !at.IsZero() {
		item[tr.Expiry] = &types.AttributeValueMemberN{Value: strconv.FormatInt(at.Unix(), 10)}
	}
	return nil
}

// ExpiresAt is a write's expiry: its own, else for puts now plus the
// lifetime; zero for none.
func (tr *Tracking) ExpiresAt(expiresAt, now time.Time, put bool) (time.Time, error) {
	if !expiresAt.IsZero() {
		if tr.Expiry == "" {
			return time.Time{}, noExpiry()
		}
		return expiresAt, nil
	}
	if put && tr.Lifetime > 0 {
		return now.Add(tr.Lifetime), nil
	}
	return time.Time{}, nil
}

// UpdateSets are an update's SETs of updatedAt and its own expiry; nil
// when none.
func (tr *Tracking) UpdateSets(expiresAt time.Time) (map[string]any, error) {
	if tr.UpdatedAt == "" && expiresAt.IsZero() {
		return nil, nil
	}
	now := tr.Clock()
	sets := map[string]any{}
	if tr.UpdatedAt != "" {
		sets[tr.UpdatedAt] = now.UTC().Format(TimeFormat)
	}
	at, err := tr.ExpiresAt(expiresAt, now, false)
	if err != nil {
		return nil, err
	}
	if !at.IsZero() {
		sets[tr.Expiry] = at.Unix()
	}
	return sets, nil
}

func noExpiry() error {
	return fmt.Errorf("%w: ExpiresAt on a handle without Tracking.Expiry", errs.ErrInvalidOption)
}
