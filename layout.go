package adjlist

// layout is how a table finds edges in reverse, decided once by NewTable
// instead of attribute names compared wherever it matters.
type layout uint8

const (
	// explicitKeys: edge items carry the inverted index's own keys
	// (GSI1PK = the target's key, GSI1SK = the source's): the default.
	explicitKeys layout = iota
	// sortKeyIndex: the inverted index is keyed on the table's sort key
	// (partition) and partition key (sort), so every item is in it as it
	// is, and an edge's index partition is its sort key.
	sortKeyIndex
	// sortKeyOnlyIndex: as sortKeyIndex, with no index sort key
	// ([Options].IndexPartitionOnly): a reverse read narrows to the
	// source's type with a filter, and its items come in no defined order.
	sortKeyOnlyIndex
	// noIndex: no inverted index ([Options].NoIndex), no reverse reads.
	noIndex
)

// layoutOf decides o's layout.
func layoutOf(o *Options) layout {
	switch {
	case o.NoIndex:
		return noIndex
	case o.IndexPartitionOnly:
		return sortKeyOnlyIndex
	case keyedOnSortKey(o):
		return sortKeyIndex
	}
	return explicitKeys
}

// keyedOnSortKey reports whether o names the table's sort key and
// partition key as the inverted index's partition and sort key.
func keyedOnSortKey(o *Options) bool {
	return o.IndexPartitionKey == o.SortKey && o.IndexSortKey == o.PartitionKey
}

// onSortKey reports whether the inverted index's partition is the table's
// sort key, so that items carry no index keys of their own.
func (l layout) onSortKey() bool {
	return l == sortKeyIndex || l == sortKeyOnlyIndex
}

// edgeIndexKeys are the inverted index keys of the edge with table keys
// pk and sk whose target's key starts at sk[labelLen:].
func (l layout) edgeIndexKeys(pk, sk string, labelLen int) (ipk, isk string) {
	if l.onSortKey() {
		return sk, pk
	}
	return sk[labelLen:], pk
}
