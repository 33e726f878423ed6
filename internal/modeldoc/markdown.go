package modeldoc

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Markdown writes m as Describe documents it to w, in one write.
func Markdown(w io.Writer, m *Model) error {
	var b strings.Builder
	fmt.Fprintf(&b, "### Table `%s`\n\n", m.Table)
	cols := slices.Concat([]string{"item", m.PartitionKey, m.SortKey}, m.IndexColumns)
	row(&b, append(cols, "attributes")...)
	row(&b, strings.Split(strings.Repeat("---,", len(cols)+1), ",")[:len(cols)+1]...)
	for _, it := range m.Items {
		cells := []string{it.Name, code(it.PartitionKey), code(it.SortKey)}
		if len(m.IndexColumns) > 0 {
			k, _ := it.keysIn(m.InvertedIndex)
			cells = append(cells, code(k.PartitionKey), code(k.SortKey))
		}
		row(&b, append(cells, strings.Join(it.Attributes, ", "))...)
	}
	if m.SortKeyIndex {
		fmt.Fprintf(&b, "\nIndex `%s` is keyed on %s (partition) and %s (sort).\n", m.InvertedIndex, m.SortKey, m.PartitionKey)
	}
	if m.PartitionOnly {
		fmt.Fprintf(&b, "\nIndex `%s` is keyed on %s (partition) alone, with no sort key.\n", m.InvertedIndex, m.SortKey)
	}
	if m.TimeToLive != "" {
		fmt.Fprintf(&b, "\nTime to Live: `%s` (epoch seconds), after which DynamoDB deletes the item, typically within a few days.\n", m.TimeToLive)
	}
	for _, ix := range m.Indexes {
		if ix.Name == m.InvertedIndex {
			continue // the inverted index: its keys are the table's columns
		}
		pk, sk := ix.Partition, ix.Sort
		if ix.Local {
			pk = pk[:1] // a native local index's queries fix the table's key only
		}
		fmt.Fprintf(&b, "\nIndex `%s` (%s): %s.\n\n", ix.Name, ix.kind(), ix.keyAttrList(pk, sk))
		head := []string{"item", strings.Join(pk, ", ")}
		if len(sk) > 0 {
			head = append(head, strings.Join(sk, ", "))
		}
		row(&b, head...)
		row(&b, strings.Split(strings.Repeat("---,", len(head)), ",")[:len(head)]...)
		for _, it := range m.Items {
			k, ok := it.keysIn(ix.Name)
			if !ok {
				continue
			}
			cells := []string{it.Name, code(k.PartitionKey)}
			if len(sk) > 0 {
				cells = append(cells, code(k.SortKey))
			}
			row(&b, cells...)
		}
	}
	b.WriteString("\n### Access patterns\n\n")
	row(&b, "access pattern", "call", "request", "key condition", "on")
	row(&b, "---", "---", "---", "---", "---")
	for _, p := range m.AccessPatterns {
		row(&b, p.Name, "`"+p.Call+"`", p.Request, code(p.KeyCondition), p.On)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// kind says what kind of index ix is and what it projects:
// "global, projection ALL", "local, projection INCLUDE (title, status)".
func (ix *Index) kind() string {
	kind := "global"
	if ix.Local {
		kind = "local"
	}
	if ix.Native {
		kind += ", native keys"
	}
	proj := ix.Projection
	if proj == "" {
		proj = types.ProjectionTypeAll
	}
	kind += ", projection " + string(proj)
	if proj == types.ProjectionTypeInclude {
		kind += " (" + strings.Join(ix.NonKeyAttributes, ", ") + ")"
	}
	return kind
}

// keyAttrList names an index's key attributes pk and sk: "GSI2PK
// (partition), GSI2SK (sort)"; native number attributes are marked N.
func (ix *Index) keyAttrList(pk, sk []string) string {
	typed := func(names []string) string {
		out := make([]string, len(names))
		for i, n := range names {
			out[i] = n
			if slices.Contains(ix.Numbers, n) {
				out[i] += " (N)"
			}
		}
		return strings.Join(out, ", ")
	}
	s := typed(pk) + " (partition"
	if ix.Local {
		s += ", the table's"
	}
	s += ")"
	if len(sk) > 0 {
		s += ", " + typed(sk) + " (sort)"
	}
	return s
}

func row(b *strings.Builder, cells ...string) {
	b.WriteString("| ")
	b.WriteString(strings.Join(cells, " | "))
	b.WriteString(" |\n")
}

// code is s as code in a table cell, its '|' escaped.
func code(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(s, "|", `\|`) + "`"
}
