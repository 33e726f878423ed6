package paging

import (
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Into is a [Sink] that appends to *Dst each item Decode accepts.
type Into[T any] struct {
	Dst *[]T
	// Decode decodes item, whose sort key attribute is skAV.
	Decode func(item Item, skAV types.AttributeValue) (T, bool, error)
}

// Take appends item, decoded, to *Dst if Decode accepts it.
func (s *Into[T]) Take(item Item, skAV types.AttributeValue) (ok bool, err error) {
	v, ok, err := s.Decode(item, skAV)
	if ok && err == nil {
		*s.Dst = append(*s.Dst, v)
	}
	return ok, err
}

// Grow makes room in *Dst for n more items.
func (s *Into[T]) Grow(n int) { *s.Dst = slices.Grow(*s.Dst, n) }

// Reset empties *Dst.
func (s *Into[T]) Reset() { *s.Dst = nil }
