// Package queryexpr builds the expressions of adjlist's queries with the
// SDK's expression builder: the key condition (partition key, and the sort
// key condition kept inside an item type's prefix; on a native index, the
// typed values of its key attributes), the label filter, the projection,
// and a template per query shape, built once and shared, so that a query
// makes only its values map. It also spells a query's range values as
// sort key text (RangeKey). Package adjlist's Query holds the keys and
// conditions; this package knows only attribute names, strings and
// attribute values.
package queryexpr
