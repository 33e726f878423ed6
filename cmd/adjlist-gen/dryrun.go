package main

import (
	"fmt"
	"slices"
	"strings"
)

// describe is -dry-run's output: the inferred model as text, e.g.
//
//	table Complaint_management_system (from ComplaintManagementSchema.json): partition key PK (S), sort key SK (S); 9 items
//	  index Customer_Complaint_GSI: global, native: customer_id / complaint_id; projection ALL
//	  item type comm (Go type Comm): 5 items, the items whose keys are shaped * / comm#*#*
//	    PK  {complaint_id}
//	    SK  comm#{comm_date}#{comm_id}
//	    {complaint_id}: kept only in the keys; named for complaint_id, ...
//	    field ComplaintID string `dynamodbav:"complaint_id"` (kept only in the keys)
//	    ...
//	notes:
//	  ...
//
// An item type left undeclared, its keys able to spell another's, is
// listed too, with a line "no entity: its keys could spell a's".
func (g *generator) describe() string {
	var b strings.Builder
	for _, t := range g.m.tables {
		fmt.Fprintf(&b, "table %s (from %s): partition key %s (%s), sort key %s (%s); %d items\n", t.name, g.source, t.pk, t.keyType(t.pk), t.sk, t.keyType(t.sk), len(t.items))
		for _, ix := range t.indexes {
			kind := "global"
			if ix.local {
				kind = "local"
			}
			keys := "native"
			if ix.derived {
				keys = "derived"
			}
			proj := ix.projection
			if ix.projection == "INCLUDE" {
				proj += " " + strings.Join(ix.nonKey, ", ")
			}
			fmt.Fprintf(&b, "  index %s: %s, %s: %s / %s; projection %s\n", ix.name, kind, keys, ix.pk, orDash(ix.sk), proj)
		}
		for _, e := range slices.Concat(t.entities, t.undeclared) {
			fmt.Fprintf(&b, "  item type %s (Go type %s): %d items, %s\n", e.name, e.goName, len(e.items), e.reason)
			if e.clash != nil {
				fmt.Fprintf(&b, "    no entity: its keys could spell %s's\n", e.clash.name)
			}
			keyRows(&b, "    ", t, e)
			for _, v := range e.vars {
				fmt.Fprintf(&b, "    {%s}: %s\n", v.name, v.how)
			}
			if e.st == nil {
				continue
			}
			for _, f := range e.st.fields {
				typ := g.typeName(f.t)
				if f.ptr {
					typ = "*" + typ
				}
				fmt.Fprintf(&b, "    field %s %s `dynamodbav:%q`", f.goName, typ, f.tag())
				if f.keyOnly {
					b.WriteString(" (kept only in the keys)")
				}
				b.WriteByte('\n')
			}
		}
	}
	if notes := g.notes(); len(notes) > 0 {
		b.WriteString("notes:\n")
		for _, n := range notes {
			fmt.Fprintf(&b, "  %s\n", strings.TrimPrefix(n, "adjlist-gen: "))
		}
	}
	return b.String()
}
