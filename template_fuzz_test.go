package adjlist

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/keycodec"
)

// splitKey splits key as parts spell it into the text of each variable
// part, in order; ok is false for a key parts cannot have built. A
// variable part's text ends where the '#' of the text after it begins (an
// escaped id holds no '#'; templates put one between two variable parts),
// or where that text, the key's last, ends it.
func splitKey(parts []keycodec.Part, key string) (texts []string, ok bool) {
	for i, p := range parts {
		if !p.Variable() {
			if key, ok = strings.CutPrefix(key, p.Text); !ok {
				return nil, false
			}
			continue
		}
		end := len(key)
		if i+1 < len(parts) {
			next := parts[i+1].Text
			if h := strings.IndexByte(next, keycodec.Sep); h >= 0 {
				if end = strings.IndexByte(key, keycodec.Sep) - h; end < 0 {
					return nil, false
				}
			} else if i+2 == len(parts) {
				end = len(key) - len(next)
			} else {
				return nil, false // two variable parts with no '#' between
			}
		}
		if end < 0 {
			return nil, false
		}
		texts, key = append(texts, key[:end]), key[end:]
	}
	return texts, key == ""
}

// literalSeps counts the '#'s of parts' text.
func literalSeps(parts []keycodec.Part) int {
	n := 0
	for _, p := range parts {
		if !p.Variable() {
			n += strings.Count(p.Text, "#")
		}
	}
	return n
}

// fuzzIndexes is the table the fuzzed entities declare index keys on.
var fuzzIndexes = []Index{
	{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
	{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
}

// FuzzTemplates checks, for arbitrary key templates and ids, that every
// table and index key an item type writes is its template with each id
// (or data value) escaped in its own place: the table keys parse back to
// the ids; each index key splits at the template's own '#'s (no id
// reaches another part) back to the ids and values; and ByIndex, given
// those ids and values, queries exactly the partition key the write
// wrote. Templates the package refuses are refused with ErrInvalidOption
// (or ErrInvalidKey), never half-bound.
func FuzzTemplates(f *testing.F) {
	for _, s := range [][7]string{
		{"u#{userID}#follower", "u#{followerID}", "F#{followerID}", "U#{userID}#{since}", "u%1", "a#b", "2026"},
		{"{playerID}", "ITEMS#{itemID}", "FLAGGED#{Flagged}", "{playerID}#{itemID}", "%23", "#", "%"},
		{"ORG#{org}", "USER#{username}", "{username}", "{org}x", "glob#ex", "carr#patrick", "%25"},
		{"p#{postID}#likelist", "u#{userID}", "P#{postID}#U#{userID}", "{since}#{userID}", "p1", "u 1", "é"},
		{"{a}", "info", "{a}-{b}", "{b}", "x", "y", "z"},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], s[6])
	}
	f.Fuzz(func(t *testing.T, pkT, skT, ipkT, iskT, a, b, c string) {
		table := NewTable(nil, "fuzz", func(o *Options) { o.NoIndex = true; o.Indexes = fuzzIndexes })
		decls := []IndexKeys{{Index: "GSI2", PartitionKey: Template(ipkT), SortKey: Template(iskT)}, {Index: "LSI1", SortKey: Template(iskT)}}
		e := NewEntity[map[string]string](table, "e", pkT, skT, func(o *EntityOptions) { o.Indexes = decls })
		if e.err != nil {
			if !errors.Is(e.err, ErrInvalidOption) {
				require.ErrorIs(t, e.err, ErrInvalidKey)
			}
			return
		}
		given := []string{a, b, c}
		ids := make(IDs, len(e.fields))
		for i := range ids {
			ids[i] = given[i%len(given)]
		}
		pk, sk, err := e.Key(ids...)
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidKey) // a bad id, or a key too long
			return
		}
		got, ok := e.parseKeys(Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}})
		require.True(t, ok, "keys %q %q do not parse back", pk, sk)
		require.Equal(t, ids, got)
		require.Equal(t, literalSeps(e.it.pk), strings.Count(pk, "#"), "an id reaches another part of %q", pk)
		require.Equal(t, literalSeps(e.it.sk), strings.Count(sk, "#"), "an id reaches another part of %q", sk)

		data := map[string]string{}
		for i, name := range keycodec.Attrs(slices.Concat(e.it.indexes[0].PK, e.it.indexes[0].SK)) {
			data[name] = given[(i+2)%len(given)]
		}
		item, _, err := built(e.handle(), data)(keyed{kc: keyCtx{IDs: ids}}, nil)
		if err != nil {
			// A bad data value, a key over the limits, or data naming a key
			// attribute.
			if !errors.Is(err, ErrInvalidKey) && !errors.Is(err, ErrKeyAttribute) {
				require.ErrorIs(t, err, ErrInvalidOption)
			}
			return
		}
		value := func(p keycodec.Part) string {
			if p.Kind == keycodec.Field {
				return ids[slices.Index(e.fields, p.Text)]
			}
			return data[p.Text]
		}
		for _, bi := range e.it.indexes {
			for attr, parts := range map[string][]keycodec.Part{bi.PKAttr: bi.PK, bi.SKAttr: bi.SK} {
				if bi.Local && attr == bi.PKAttr {
					continue // the table's partition key, checked above
				}
				key, ok := ddbitem.String(item, attr)
				if !ok {
					continue // a data value was empty: not in the index
				}
				require.Equal(t, literalSeps(parts), strings.Count(key, "#"), "an id reaches another part of %s = %q", attr, key)
				texts, ok := splitKey(parts, key)
				require.True(t, ok, "%s = %q does not split as %s", attr, key, keycodec.String(parts))
				var vars []keycodec.Part
				for _, p := range parts {
					if p.Variable() {
						vars = append(vars, p)
					}
				}
				for i, p := range vars {
					id, err := keycodec.Unescape(texts[i])
					require.NoError(t, err)
					require.Equal(t, value(p), id, "%s of %s = %q", keycodec.String([]keycodec.Part{p}), attr, key)
				}
			}
			var values []any
			for _, p := range bi.PK {
				if p.Variable() {
					values = append(values, value(p))
				}
			}
			want, ok := ddbitem.String(item, bi.PKAttr)
			if !ok {
				continue // not in the index
			}
			k, err := e.it.indexKeys(table, bi.Name, values)
			require.NoError(t, err, "ByIndex(%q, %q)", bi.Name, values)
			require.Equal(t, want, k.pk, "ByIndex(%q, %q) queries another partition than the write wrote", bi.Name, values)
		}
		presetsAgree(t, a, b, c)
	})
}

// fuzzPresets are item types of the package's layouts whose index keys
// hold node keys and refs, declared once.
var fuzzPresets = func() (p struct {
	proj, task *Collection[map[string]string, map[string]string]
	tagged     *Edge[map[string]string]
	has        *Edge[map[string]string]
}) {
	t := NewTable(nil, "presets", func(o *Options) {
		o.Indexes = append(slices.Clone(fuzzIndexes), Index{Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"})
	})
	ws := NewNode[map[string]string](t, "WS", "META")
	tags := NewNode[map[string]string](t, "TAG", "META")
	children := func(o *CollectionOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("IN#{@parent}"), SortKey: Template("{@self}")},
			{Index: "LSI1", SortKey: Template("P#{@self}")}}
	}
	p.proj = NewCollection[map[string]string](ws, "PROJ", children)
	p.task = NewCollection[map[string]string](ws, "TASK", children, func(o *CollectionOptions) { o.Shards = 7 })
	p.tagged = NewEdge[map[string]string](tags, "TAGGED", p.proj, func(o *EdgeOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("TO#{@target}"), SortKey: Template("{@source}")},
			{Index: "GSI3", PartitionKey: Template("{@self}"), SortKey: Template("{@source}")},
			{Index: "LSI1", SortKey: Template("{@target}")}}
	})
	p.has = NewEdge[map[string]string](p.proj, "HAS", tags, func(o *EdgeOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("FROM#{@source}"), SortKey: Template("{@target}")},
			{Index: "LSI1", SortKey: Template("{@target}")}}
	})
	return p
}()

// presetsAgree checks that ByIndex on the presets' items with ids a, b, c
// (a child's parent, the child, a tag) queries the partition their writes
// wrote: ParentKey, SelfKey, a child's ref as SourceKey, TargetKey and
// SelfKey, and a sharded collection's local index.
func presetsAgree(t *testing.T, a, b, c string) {
	t.Helper()
	p := fuzzPresets
	ref, err := p.proj.Ref(a, b)
	if err != nil {
		require.ErrorIs(t, err, ErrInvalidKey)
		return
	}
	check := func(it *itemType, item Item, err error, values ...any) {
		t.Helper()
		if err != nil {
			require.ErrorIs(t, err, ErrInvalidKey) // a key over the limits
			return
		}
		for _, bi := range it.indexes {
			k, err := it.indexKeys(fuzzPresets.proj.t, bi.Name, values)
			require.NoError(t, err, "%s ByIndex(%q, %q)", it.kind, bi.Name, values)
			want, _ := ddbitem.String(item, bi.PKAttr)
			if !bi.Local && bi.Shards == 0 {
				require.Equal(t, want, k.pk, "%s ByIndex(%q, %q)", it.kind, bi.Name, values)
				continue
			}
			if len(k.shardPKs) == 0 {
				require.Equal(t, want, k.pk, "%s ByIndex(%q, %q)", it.kind, bi.Name, values)
				continue
			}
			require.Contains(t, k.shardPKs, want, "%s ByIndex(%q, %q) reads no shard of its partition", it.kind, bi.Name, values)
		}
	}
	item, _, err := built(p.proj.handle(), map[string]string(nil))(p.proj.keyed(a, b))
	check(&p.proj.it, item, err, a)
	item, _, err = built(p.task.handle(), map[string]string(nil))(p.task.keyed(a, b))
	check(&p.task.it, item, err, a)
	item, _, err = built(p.tagged.handle(), map[string]string(nil))(p.tagged.keyed(c, ref))
	if err == nil {
		// GSI2 and GSI3 take the ref, LSI1 the source: one value each.
		for _, bi := range p.tagged.it.indexes {
			v := ref
			if bi.Local {
				v = c
			}
			it := p.tagged.it
			it.indexes = []keycodec.Index{bi}
			check(&it, item, nil, v)
		}
	}
	item, _, err = built(p.has.handle(), map[string]string(nil))(p.has.keyed(ref, c))
	check(&p.has.it, item, err, ref)
}
