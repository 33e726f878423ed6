package adjlist

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/stretchr/testify/require"
)

// rawRest is the range value that names a key of parts after their
// static prefix: the parts' text, each variable part's value as it is
// (an id, or a data attribute's string), as Query's rule of range values
// has it. ok is false when the rule cannot name it: a value holding '#'
// is cut there, so only a value after which the template has no '#' may
// hold one.
func rawRest(parts []keycodec.Part, value func(keycodec.Part) string) (v string, ok bool) {
	first := slices.IndexFunc(parts, keycodec.Part.Variable)
	if first < 0 {
		return "", false
	}
	var b strings.Builder
	for i, p := range parts[first:] {
		if !p.Variable() {
			b.WriteString(p.Text)
			continue
		}
		x := value(p)
		if strings.Contains(x, "#") && slices.ContainsFunc(parts[first+i+1:], func(q keycodec.Part) bool {
			return !q.Variable() && strings.Contains(q.Text, "#")
		}) {
			return "", false
		}
		b.WriteString(x)
	}
	return b.String(), true
}

// FuzzRangeValues checks, for arbitrary key templates, ids and data
// values, that a range value naming an item's key by Query's rule (the
// key after the query's prefix, ids and values as they are) is sent as
// the key the write stored: Equal of it on the entity's List and on
// ByIndex of its index sort key sends exactly the stored key, as the
// partition values do; and so on AllTypes of the List for keys whose ids
// hold no '#' and whose text holds no '%' (AllTypes reads every '#' as a
// separator and escapes every piece).
func FuzzRangeValues(f *testing.F) {
	for _, s := range [][6]string{
		{"u#{userID}", "D#{date}#O#{order}", "{name}%#{order}", "a%b", "2026#x", "%"},
		{"u#{userID}", "{state}#{date}", "{name}x#{date}", "%", "W%", "x%"},
		{"{p}", "ITEMS#{item}", "N#{name}#{item}v%", "p", "%23", "#"},
		{"u#{userID}", "p#{postID}#u#{authorID}", "{name}%x#{postID}", "%", "a#b", "é"},
		{"ORG#{org}", "USER#{u}", "{name}", "o", "u%", "n#"},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5])
	}
	f.Fuzz(func(t *testing.T, pkT, skT, iskT, a, b, c string) {
		table := NewTable(nil, "fuzz", func(o *Options) { o.NoIndex = true; o.Indexes = fuzzIndexes })
		e := NewEntity[map[string]string](table, "e", pkT, skT, func(o *EntityOptions) {
			o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("P"), SortKey: Template(iskT)}}
		})
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
		data := map[string]string{}
		for i, name := range keycodec.Attrs(e.it.indexes[0].SK) {
			data[name] = given[(i+2)%len(given)]
		}
		item, k, err := built(e.handle(), data)(keyed{kc: keyCtx{IDs: ids}}, nil)
		if err != nil {
			return // a bad id or value, or a key over the limits
		}
		value := func(p keycodec.Part) string {
			if p.Kind == keycodec.Field {
				return ids[slices.Index(e.fields, p.Text)]
			}
			return data[p.Text]
		}
		check := func(what string, q Query[EntityItem[map[string]string]], parts []keycodec.Part, stored string) {
			t.Helper()
			require.NoError(t, q.err, what)
			v, ok := rawRest(parts, value)
			if !ok {
				return
			}
			eq := q.Equal(v)
			if errors.Is(eq.err, ErrInvalidKey) || errors.Is(eq.err, ErrInvalidOption) && q.keys.skExact {
				return // a value too long, or a sort key of one value
			}
			require.NoError(t, eq.err, "%s Equal(%q)", what, v)
			require.Equal(t, stored, eq.sk.lo, "%s Equal(%q) sends another key than the write stored", what, v)
		}
		// List's prefix holds the sort key up to its first field the
		// partition does not give ("#%25##" of "#{0}##{I}" when the
		// partition key is "{0}"): the range value is the rest.
		listParts := e.it.sk
		for i, p := range e.it.sk {
			if p.Kind == keycodec.Field && slices.Index(e.fields, p.Text) >= e.pkN {
				listParts = e.it.sk[i:]
				break
			}
		}
		check("List", e.List(ids[:e.pkN]...), listParts, k.SK)
		if isk, ok := ddbitem.String(item, "GSI2SK"); ok {
			check("ByIndex", e.ByIndex("GSI2"), e.it.indexes[0].SK, isk)
		}
		whole := strings.Contains(skT, "%")
		for _, id := range ids {
			whole = whole || strings.Contains(id, "#")
		}
		if v, ok := rawRest(e.it.sk, value); ok && !whole {
			p, _ := keycodec.StaticPrefix(e.it.sk, &e.it.prefixes)
			v = p + v // the whole key, its ids as they are
			all := AllTypes(e.List(ids[:e.pkN]...)).Equal(v)
			if !errors.Is(all.err, ErrInvalidKey) {
				require.NoError(t, all.err, "AllTypes Equal(%q)", v)
				require.Equal(t, k.SK, all.sk.lo, "AllTypes Equal(%q) sends another key than the write stored", v)
			}
		}
	})
}
