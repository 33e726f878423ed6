package adjlist

import (
	"fmt"
	"io"
	"strings"
)

// indexed is a handle whose item type may declare keys in derived-key
// indexes: *Node, *Edge and *Collection.
type indexed interface {
	indexItemType() *itemType
}

func (n *Node[N]) indexItemType() *itemType          { return &n.it }
func (e *Edge[E]) indexItemType() *itemType          { return &e.it }
func (c *Collection[P, C]) indexItemType() *itemType { return &c.it }

// DescribeIndex writes, as Markdown, how the item types among handles are
// keyed in the derived-key index called index ([Index] with PartitionKey,
// and [IndexKeys]): one row per item type that declares keys in it, with
// its partition and sort key templates, ids and data attributes as
// <placeholders> as [Describe] writes them, and its shards. For seed
// 002's overloaded GSI1:
//
//	### Index `GSI1`: Data (partition), Node (sort)
//
//	| item | Data | Node |
//	| --- | --- | --- |
//	| node PERSON | `NAME#<name>` | `PERSON#<id>` |
//	| edge HAS (PERSON → SKILL) | `SKILL#<to>#<shard of key, 4>` | `PERSON#<from>` |
//
// Item types that declare no keys in it are not in the index (it is
// sparse) and get no row; handles that are access patterns only
// ([AccessPattern]) are skipped. [Describe] shows the table's keys and
// the inverted index; DescribeIndex shows the others, one call per index.
// It makes no request. An index the table does not declare, or one that
// is native or the inverted index (no templates), is [ErrInvalidOption];
// otherwise it returns the first handle error or write error.
func DescribeIndex(w io.Writer, t *Table, index string, handles ...Describer) error {
	if t.err != nil {
		return t.err
	}
	ix, err := t.index(index)
	switch {
	case err != nil:
		return err
	case ix.native():
		return fmt.Errorf("%w: index %s is keyed natively on data attributes; it has no templates", ErrInvalidOption, index)
	case !t.opts.NoIndex && ix == &t.indexes[0]:
		return fmt.Errorf("%w: index %s is the inverted index; Describe shows its keys", ErrInvalidOption, index)
	}
	pk, sk := ix.keyAttrs(t)
	cols := append([]string{"item"}, pk[0])
	title := fmt.Sprintf("### Index `%s`: %s (partition)", index, pk[0])
	if len(sk) > 0 {
		cols = append(cols, sk[0])
		title += fmt.Sprintf(", %s (sort)", sk[0])
	}
	if ix.Local {
		title += ", local"
	}
	var b strings.Builder
	b.WriteString(title + "\n\n")
	row(&b, cols...)
	row(&b, strings.Split(strings.Repeat("---,", len(cols)), ",")[:len(cols)]...)
	for _, h := range handles {
		s := h.describe()
		if s.err != nil {
			return s.err
		}
		if s.t != t {
			return fmt.Errorf("%w: %s belongs to table %s, not %s", ErrInvalidOption, s.kind, s.t.name, t.name)
		}
		ih, ok := h.(indexed)
		if !ok {
			continue // an access pattern only
		}
		it := ih.indexItemType()
		bi, ok := it.indexIn(index)
		if !ok {
			continue
		}
		p := templateText(bi.pk, it)
		if bi.shards > 0 {
			p += fmt.Sprintf("#<shard of key, %d>", bi.shards)
		}
		cells := []string{s.kind, code(p)}
		if len(sk) > 0 {
			cells = append(cells, code(templateText(bi.sk, it)))
		}
		row(&b, cells...)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// templateText is a key template as it of an item type reads: constants
// as they are, data attributes as <name>, node keys with their type
// prefix and an id placeholder ("PERSON#<from>").
func templateText(parts []KeyPart, it *itemType) string {
	// The id placeholders Describe uses: a node's <id>; an edge's <from>
	// and <to> (its own key ends in the target id); a child's <child>
	// under its parent's <id>.
	self := map[partKind]string{partSelf: "<id>", partSource: "<to>", partParent: "<child>"}[it.home]
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('#')
		}
		switch p.kind {
		case partConst:
			b.WriteString(p.name)
		case partAttr:
			b.WriteString("<" + p.name + ">")
		case partSelf:
			b.WriteString(it.prefixes.self + self)
		case partSource:
			b.WriteString(it.prefixes.source + "<from>")
		case partTarget:
			b.WriteString(it.prefixes.target + "<to>")
		case partParent:
			b.WriteString(it.prefixes.parent + "<id>")
		}
	}
	return b.String()
}
