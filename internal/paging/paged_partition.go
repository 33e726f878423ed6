package paging

import "slices"

// Into is a [Sink] that appends to *Dst each item Decode accepts.
type Into[T any] struct {
	Dst    *[]T
	Decode func(Item) (T, bool, error)
}

// Take appends item, decoded, to *Dst if Decode accepts it.
func (s *Into[T]) Take(item Item) (ok bool, err error) {
	v, ok, err := s.Decode(item)
	if ok && err == nil {
		*s.Dst = append(*s.Dst, v)
	}
	return ok, err
}

// Grow makes room in *Dst for n more items.
func (s *Into[T]) Grow(n int) { *s.Dst = slices.Grow(*s.Dst, n) }

// Reset empties *Dst.
func (s *Into[T]) Reset() { *s.Dst = nil }
