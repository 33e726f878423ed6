package adjlist

import (
	"slices"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// keyCore is an item type's table keys, compiled once: its partition and
// sort key spellings over its ids (a node's id, an edge's from and to, an
// Entity's key fields). Its key and parse are the only code that builds
// table keys from ids and reads ids back.
type keyCore struct {
	fields []string // the ids' names, in order
	pk, sk keycodec.Spelling
	// pkName and skName are what a refusal of a key's size names.
	pkName, skName string
	skIsPK         bool // a self-keyed node's: the sort key is the partition key
}

// newKeyCore compiles an item type's keys.
func newKeyCore(fields []string, pk, sk keycodec.Spelling, pkName, skName string) keyCore {
	c := keyCore{fields: fields, pk: pk, sk: sk, pkName: pkName, skName: skName}
	c.skIsPK = len(pk) == len(sk) && &pk[0] == &sk[0]
	return c
}

// setKeys makes c it's keys, from which its recorded templates are drawn.
func (it *itemType) setKeys(c keyCore) {
	it.keys = c
	it.pk, it.sk = c.pk.Parts(c.fields), c.sk.Parts(c.fields)
}

// partition is the partition key of the items with ids (those its
// spelling holds; others may be ""), checked.
func (c *keyCore) partition(ids []string) (string, error) {
	return c.pk.Key(ids, c.pkName, "partition key", keycodec.MaxPartitionKeyLen)
}

// sortKey is the sort key of the items with ids (those its spelling
// holds; others may be ""), checked.
func (c *keyCore) sortKey(ids []string) (string, error) {
	return c.sk.Key(ids, c.skName, "sort key", keycodec.MaxSortKeyLen)
}

// key is the checked primary key of the item with ids, in the order of
// fields. On an error pk is as far as it was built, for the error to name.
func (c *keyCore) key(t *Table, ids []string) (pk, sk string, err error) {
	pk, err = c.partition(ids)
	switch {
	case err != nil:
	case c.skIsPK:
		sk = pk
	default:
		sk, err = c.sortKey(ids)
	}
	if err != nil {
		return pk, sk, err
	}
	return pk, sk, t.checkKeys(c.pkName, pk, sk)
}

// parse reads the ids of the item whose table keys are pk and sk into
// ids, len(fields) empty strings; false, allocating nothing, for keys
// the core cannot have built. The sort key is read first: the item types
// of one partition differ there.
func (c *keyCore) parse(pk, sk string, ids []string) bool {
	return c.sk.Parse(sk, ids) && c.pk.Parse(pk, ids)
}

// parseItem is parse of item's table keys on t.
func (c *keyCore) parseItem(t *Table, item Item, ids []string) bool {
	pk, okP := t.keyText(item, t.opts.PartitionKey)
	sk, okS := t.keyText(item, t.opts.SortKey)
	return okP && okS && c.parse(pk, sk, ids)
}

// ids are the ids of item; ok=false costs no allocation (a read of several
// item types offers each item to every target).
func (c *keyCore) ids(t *Table, item Item) (IDs, bool) {
	var buf [8]string
	var ids []string
	if len(c.fields) <= len(buf) {
		ids = buf[:len(c.fields)]
	} else {
		ids = make([]string, len(c.fields))
	}
	if !c.parseItem(t, item, ids) {
		return nil, false
	}
	return slices.Clone(ids), true
}
