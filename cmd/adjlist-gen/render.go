package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"go/format"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// emitter writes Go source.
type emitter struct{ b strings.Builder }

// raw writes s and a newline.
func (w *emitter) raw(s string) {
	w.b.WriteString(s)
	w.b.WriteByte('\n')
}

func (w *emitter) p(format string, args ...any) {
	fmt.Fprintf(&w.b, format, args...)
	w.b.WriteByte('\n')
}

// comment writes text as // lines of at most 76 columns after indent.
func (w *emitter) comment(indent, text string) {
	for _, para := range strings.Split(text, "\n") {
		if para == "" {
			w.p("%s//", indent)
			continue
		}
		if strings.HasPrefix(para, "\t") {
			w.p("%s//%s", indent, para)
			continue
		}
		line := ""
		for _, word := range strings.Fields(para) {
			if line != "" && len(line)+1+len(word) > 76-len(indent) {
				w.p("%s// %s", indent, line)
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += word
		}
		w.p("%s// %s", indent, line)
	}
}

// names are the package-level Go names of a generated package.
type names struct {
	used  map[string]bool
	owner map[string]string // what declares each name, for the notes
}

func (n *names) take(name string) string { return uniqueGo(name, n.used) }

// source is one generated file.
type source struct {
	name string
	text []byte
}

// render writes the package: model.go and model_test.go.
func (g *generator) render() ([]source, error) {
	src := g.modelGo()
	if g.synthesize {
		src = g.redact(src)
	}
	model, err := format.Source([]byte(src))
	if err != nil {
		return nil, fmt.Errorf("formatting model.go: %w", err)
	}
	test, err := format.Source([]byte(g.testGo()))
	if err != nil {
		return nil, fmt.Errorf("formatting model_test.go: %w", err)
	}
	return []source{{"model.go", model}, {"model_test.go", test}}, nil
}

// redact replaces, in the comments of src, each value of the sample
// items (its attributes' text and numbers, and its key fields') with
// "…", where the comments name items to say what inference chose: with
// synthesize, the files hold no sample data. Values shorter than three
// characters, which no reader could tell from other text, and the
// model's own words (its names, attributes, key templates' fixed text,
// description) stay.
func (g *generator) redact(src string) string {
	schema := map[string]bool{}
	for _, w := range regexp.MustCompile(`[^\s"'(),.:;]+`).FindAllString(g.m.name+" "+g.m.description, -1) {
		schema[w] = true
	}
	values := map[string]bool{}
	var walk func(types.AttributeValue)
	walk = func(v types.AttributeValue) {
		switch v := v.(type) {
		case *types.AttributeValueMemberS:
			values[v.Value] = true
		case *types.AttributeValueMemberN:
			values[v.Value] = true
		case *types.AttributeValueMemberSS:
			for _, s := range v.Value {
				values[s] = true
			}
		case *types.AttributeValueMemberNS:
			for _, s := range v.Value {
				values[s] = true
			}
		case *types.AttributeValueMemberL:
			for _, e := range v.Value {
				walk(e)
			}
		case *types.AttributeValueMemberM:
			for _, e := range v.Value {
				walk(e)
			}
		}
	}
	for _, t := range g.m.tables {
		schema[t.name] = true
		for _, ix := range t.indexes {
			schema[ix.name] = true
		}
		for _, it := range t.items {
			for a, v := range it.av {
				schema[a] = true
				walk(v)
				// The keys' parts: a key field's value is one.
				if s, ok := v.(*types.AttributeValueMemberS); ok {
					for _, part := range strings.Split(s.Value, "#") {
						values[part] = true
					}
				}
			}
		}
		for _, e := range t.entities {
			schema[e.name] = true
			for _, parts := range [][]tpart{e.pk, e.sk} {
				for _, p := range parts {
					for _, w := range strings.Split(p.lit, "#") {
						schema[w] = true
					}
				}
			}
			for _, k := range e.indexes {
				for _, parts := range [][]tpart{k.pk, k.sk} {
					for _, p := range parts {
						for _, w := range strings.Split(p.lit, "#") {
							schema[w] = true
						}
					}
				}
			}
		}
	}
	var alts []string
	for v := range values {
		if len(v) >= 3 && !schema[v] {
			alts = append(alts, regexp.QuoteMeta(v))
		}
	}
	if len(alts) == 0 {
		return src
	}
	// The longest first, so that a value holding another goes whole.
	slices.SortFunc(alts, func(a, b string) int { return len(b) - len(a) })
	re := regexp.MustCompile(`(^|[^\pL\pN_])(` + strings.Join(alts, "|") + `)([^\pL\pN_]|$)`)
	lines := strings.Split(src, "\n")
	for i, line := range lines {
		if c := strings.Index(line, "//"); c >= 0 {
			comment := line[c:]
			// Twice: a match takes the character after it, which may start
			// the next value.
			for range 2 {
				comment = re.ReplaceAllString(comment, "${1}…${3}")
			}
			lines[i] = line[:c] + comment
		}
	}
	return strings.Join(lines, "\n")
}

// usesKind reports whether any field of the package has kind k.
func (g *generator) usesKind(k gkind) bool {
	found := false
	var walk func(*goType)
	walk = func(t *goType) {
		if t == nil {
			return
		}
		if t.kind == k {
			found = true
		}
		walk(t.elem)
		if t.st != nil {
			for _, f := range t.st.fields {
				walk(f.t)
			}
		}
	}
	for _, t := range g.m.tables {
		for _, e := range t.entities {
			walk(&goType{kind: kStruct, st: e.st})
		}
	}
	return found
}

func (g *generator) modelGo() string {
	w := &emitter{}
	w.p("// Code generated by adjlist-gen from %s; DO NOT EDIT.", g.source)
	w.p("")
	w.comment("", g.packageDoc())
	w.p("package %s", g.pkg)
	w.p("")
	needTypes := g.usesKind(kValue)
	for _, t := range g.m.tables {
		needTypes = needTypes || t.pkN || t.skN
		for _, ix := range t.indexes {
			needTypes = needTypes || ix.projection != "ALL" || ix.pkType == "N" || ix.skType == "N"
		}
	}
	w.p("import (")
	if g.hasGetPattern() {
		w.p(`"context"`)
		w.p("")
	}
	if g.usesKind(kNumber) || g.usesKind(kNumberSet) {
		w.p(`"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"`)
	}
	if needTypes {
		w.p(`"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"`)
	}
	w.p("")
	w.p(`"github.com/adjlist/adjlist"`)
	w.p(")")
	w.p("")
	for _, t := range g.m.tables {
		g.tableGo(w, t)
	}
	if g.usesKind(kValue) {
		w.raw(`// Value is an attribute value kept as DynamoDB holds it, for an
// attribute whose values differ in type from item to item, or are NULL:
// no one Go type would give them back as they are.
type Value struct{ types.AttributeValue }

// MarshalDynamoDBAttributeValue writes the value as it is; a zero Value
// is NULL.
func (v Value) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	if v.AttributeValue == nil {
		return &types.AttributeValueMemberNULL{Value: true}, nil
	}
	return v.AttributeValue, nil
}

// UnmarshalDynamoDBAttributeValue keeps av as it is.
func (v *Value) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	v.AttributeValue = av
	return nil
}`)
	}
	return w.b.String()
}

// packageDoc is the package's doc comment.
func (g *generator) packageDoc() string {
	var b strings.Builder
	what := "the tables " + strings.Join(g.tableNames(), ", ")
	if len(g.m.tables) == 1 {
		what = "the table " + g.m.tables[0].name
	}
	model := ""
	if g.m.name != "" {
		model = strconv.Quote(g.m.name) + " "
	}
	if g.live {
		fmt.Fprintf(&b, "Package %s is the data layer of %s as DynamoDB describes it, with its indexes, and one adjlist entity per item type, keyed as a sample of its items is.", g.pkg, what)
		b.WriteString("\n\nadjlist-gen inferred the item types, their key templates and their Go types from the sampled items; each type's comment says how, and where inference had a choice.")
		if g.synthesize {
			b.WriteString(" No sampled item is in this package, only the literal text of its keys and the names of its item types: its test writes items made from the inferred types through the entities on DynamoDB Local and checks that DynamoDB stores them byte for byte.")
		} else {
			b.WriteString(" The package's test writes the sampled items through the entities on DynamoDB Local and checks that DynamoDB stores them byte for byte as the table held them.")
		}
		return b.String()
	}
	fmt.Fprintf(&b, "Package %s is the data layer of the NoSQL Workbench data model %s(%s): %s with its indexes, and one adjlist entity per item type, keyed as the model's sample items are.", g.pkg, model, g.source, what)
	if d := strings.TrimSpace(g.m.description); d != "" {
		first, _, _ := strings.Cut(d, "\n")
		fmt.Fprintf(&b, " The model: %q", first)
		if !strings.HasSuffix(b.String(), ".") {
			b.WriteString(".")
		}
	}
	b.WriteString("\n\nadjlist-gen inferred the item types, their key templates and their Go types from the sample items; each type's comment says how, and where inference had a choice.")
	if g.synthesize {
		b.WriteString(" The package holds no sample item: its test writes items made from the Go types through the entities on DynamoDB Local, and, for every item type, an item of new values, which it reads back with Get, each index and each access pattern.")
	} else {
		b.WriteString(" The package's test writes the sample items through the entities on DynamoDB Local and checks that DynamoDB stores them byte for byte as the model has them; then, for every item type, an item of new values, which it reads back with Get, each index and each access pattern.")
	}
	return b.String()
}

func (g *generator) tableNames() []string {
	var out []string
	for _, t := range g.m.tables {
		out = append(out, t.name)
	}
	return out
}

// tableGo writes one table's constant, types and model.
func (g *generator) tableGo(w *emitter, t *table) {
	n := g.tnames[t]
	w.comment("", fmt.Sprintf("%s is the table's name in the data model.", n.tableConst))
	w.p("const %s = %q", n.tableConst, t.name)
	w.p("")
	for _, e := range slices.Concat(t.entities, t.undeclared) {
		g.entityType(w, t, e)
	}
	var doc strings.Builder
	fmt.Fprintf(&doc, "%s is the table %s and its item types: build it with %s.", n.model, t.name, n.newModel)
	if len(t.noItems) > 0 {
		fmt.Fprintf(&doc, " The model's facets %s have no sample items, from which to infer their keys: they have no entity.", strings.Join(t.noItems, ", "))
	}
	if len(t.notes) > 0 {
		doc.WriteString("\n\nWhere inference had a choice:")
		for _, note := range t.notes {
			doc.WriteString("\n\n" + g.redactKeys(t, note))
		}
	}
	w.comment("", doc.String())
	w.p("type %s struct {", n.model)
	w.p("// Table is the table, with its indexes.")
	w.p("Table *adjlist.Table")
	for _, e := range t.entities {
		w.p("// %s is the item type %s (see %s).", e.goName, e.name, e.goName)
		w.p("%s *adjlist.Entity[%s]", e.goName, e.goName)
	}
	w.p("}")
	w.p("")
	w.comment("", fmt.Sprintf("%s declares the table on db as tableName (%s in the model; a name of its own in tests), with its indexes, and one entity per item type. It makes no request; m.Table.Check() reports any declaration adjlist refuses.", n.newModel, n.tableConst))
	w.p("func %s(db adjlist.Client, tableName string) *%s {", n.newModel, n.model)
	w.p("table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {")
	if t.pk != "PK" || t.sk != "SK" {
		w.p("o.PartitionKey, o.SortKey = %q, %q", t.pk, t.sk)
	}
	if t.pkN {
		w.p("o.PartitionKeyType = types.ScalarAttributeTypeN")
	}
	if t.skN {
		w.p("o.SortKeyType = types.ScalarAttributeTypeN")
	}
	w.p("o.NoIndex = true // the model's indexes are below, if any")
	if len(t.indexes) > 0 {
		w.p("o.Indexes = []adjlist.Index{")
		for _, ix := range t.indexes {
			w.comment("", fmt.Sprintf("%s: %s.", ix.name, ix.why))
			if len(ix.dropped) > 0 {
				w.comment("", fmt.Sprintf("The model projects %s too, which every index projects anyway.", strings.Join(ix.dropped, ", ")))
			}
			w.p("{%s},", indexLiteral(ix))
		}
		w.p("}")
	}
	w.p("})")
	w.p("return &%s{", n.model)
	w.p("Table: table,")
	for _, e := range t.entities {
		var opts []string
		var keyOnly []string
		for _, f := range e.st.fields {
			if f.keyOnly {
				keyOnly = append(keyOnly, strconv.Quote(f.attr))
			}
		}
		if len(keyOnly) > 0 {
			opts = append(opts, fmt.Sprintf("o.KeyOnly = []string{%s}", strings.Join(keyOnly, ", ")))
		}
		if len(e.indexes) > 0 {
			var b strings.Builder
			b.WriteString("o.Indexes = []adjlist.IndexKeys{\n")
			for _, k := range e.indexes {
				fmt.Fprintf(&b, "{Index: %q", k.ix.name)
				if !k.ix.local { // a local index's partition key is the table's
					fmt.Fprintf(&b, ", PartitionKey: adjlist.Template(%q)", template(k.pk))
				}
				if k.ix.sk != "" {
					fmt.Fprintf(&b, ", SortKey: adjlist.Template(%q)", template(k.sk))
				}
				b.WriteString("},\n")
			}
			b.WriteString("}")
			opts = append(opts, b.String())
		}
		call := fmt.Sprintf("adjlist.NewEntity[%s](table, %q, %q, %q", e.goName, e.name, template(e.pk), template(e.sk))
		if len(opts) == 0 {
			w.p("%s: %s),", e.goName, call)
			continue
		}
		w.p("%s: %s, func(o *adjlist.EntityOptions) {", e.goName, call)
		for _, o := range opts {
			w.p("%s", o)
		}
		w.p("}),")
	}
	w.p("}")
	w.p("}")
	w.p("")
	g.patternsGo(w, t)
}

// indexLiteral is the adjlist.Index literal of ix, without braces.
func indexLiteral(ix *index) string {
	parts := []string{fmt.Sprintf("Name: %q", ix.name)}
	if ix.local {
		parts = append(parts, "Local: true")
	}
	if ix.derived {
		if !ix.local {
			parts = append(parts, fmt.Sprintf("PartitionKey: %q", ix.pk))
		}
		if ix.sk != "" {
			parts = append(parts, fmt.Sprintf("SortKey: %q", ix.sk))
		}
	} else {
		attr := func(name, typ string) string {
			if typ == "N" {
				return fmt.Sprintf("{Name: %q, Type: types.ScalarAttributeTypeN}", name)
			}
			return fmt.Sprintf("{Name: %q}", name)
		}
		if !ix.local {
			parts = append(parts, fmt.Sprintf("PartitionAttributes: []adjlist.KeyAttribute{%s}", attr(ix.pk, ix.pkType)))
		}
		if ix.sk != "" {
			parts = append(parts, fmt.Sprintf("SortAttributes: []adjlist.KeyAttribute{%s}", attr(ix.sk, ix.skType)))
		}
	}
	switch ix.projection {
	case "KEYS_ONLY":
		parts = append(parts, "Projection: types.ProjectionTypeKeysOnly")
	case "INCLUDE":
		var q []string
		for _, a := range ix.nonKey {
			q = append(q, strconv.Quote(a))
		}
		parts = append(parts, "Projection: types.ProjectionTypeInclude", fmt.Sprintf("NonKeyAttributes: []string{%s}", strings.Join(q, ", ")))
	}
	return strings.Join(parts, ", ")
}

// redactKeys is the note or reason s as a comment of the generated code
// says it: as it is, or, when the package holds no sampled value
// (synthesize), with each item t's notes name by its keys, "item 3
// (c#1 / o#100)", named without them, "item 3".
func (g *generator) redactKeys(t *table, s string) string {
	if !g.synthesize {
		return s
	}
	for _, it := range t.items {
		keys := fmt.Sprintf("(%s / %s)", it.pk, it.sk)
		s = strings.ReplaceAll(s, it.where+" "+keys, it.where)
		s = strings.ReplaceAll(s, keys, "("+it.where+")")
	}
	return s
}

// entityType writes an entity's Go type and the structs of its map
// attributes.
func (g *generator) entityType(w *emitter, t *table, e *entity) {
	var doc strings.Builder
	in := "in the model"
	if g.live {
		in = "in the sample"
	}
	fmt.Fprintf(&doc, "%s is an item of type %s: %s (%d %s).", e.goName, e.name, g.redactKeys(t, e.reason), len(e.items), in)
	if e.twinOf != nil {
		of := strings.TrimPrefix(g.redactKeys(t, e.twinOf.reason), "the items ")
		if strings.HasPrefix(of, "whose") {
			of = "those " + of
		}
		fmt.Fprintf(&doc, " %s is numbered: its items are %s, as %s's are, but their keys have another shape, which one template cannot spell.", e.goName, of, e.twinOf.goName)
	}
	if e.clash != nil {
		fmt.Fprintf(&doc, " %s has no entity: its keys could spell %s's, and adjlist refuses two such item types on one table. Declare it by hand (adjlist.NewEntity) once one of the two has a key text of its own.", e.goName, e.clash.goName)
	}
	doc.WriteString(" Its keys:\n\n")
	keyRows(&doc, "\t", t, e)
	for _, v := range e.vars {
		fmt.Fprintf(&doc, "\n{%s}: %s.", v.name, v.how)
	}
	seen := map[string]bool{}
	for _, n := range e.notes {
		if !seen[n] {
			seen[n] = true
			fmt.Fprintf(&doc, "\n\nInference had a choice: %s.", strings.TrimSuffix(g.redactKeys(t, n), "."))
		}
	}
	w.comment("", doc.String())
	g.structGo(w, e.st, len(e.items))
}

// structGo writes a struct and, after it, the structs its fields use.
func (g *generator) structGo(w *emitter, st *structType, total int) {
	if st.holds != "" {
		w.comment("", fmt.Sprintf("%s holds %s, a map.", st.name, st.holds))
	}
	w.p("type %s struct {", st.name)
	var nested []*structType
	for _, f := range st.fields {
		typ := g.typeName(f.t)
		if f.ptr {
			typ = "*" + typ
		}
		comment := ""
		switch {
		case f.keyOnly:
			comment = " // kept only in the keys"
		case f.comment != "":
			comment = " // " + f.comment
		}
		tag := "`dynamodbav:" + strconv.Quote(f.tag()) + "`"
		if strings.Contains(tag[1:len(tag)-1], "`") {
			tag = strconv.Quote("dynamodbav:" + strconv.Quote(f.tag()))
		}
		w.p("%s %s %s%s", f.goName, typ, tag, comment)
		collectStructs(f.t, &nested)
	}
	w.p("}")
	w.p("")
	for _, n := range nested {
		g.structGo(w, n, 0)
	}
}

func collectStructs(t *goType, out *[]*structType) {
	switch {
	case t == nil:
	case t.kind == kStruct:
		*out = append(*out, t.st)
	default:
		collectStructs(t.elem, out)
	}
}

// typeName is the Go spelling of t.
func (g *generator) typeName(t *goType) string {
	switch t.kind {
	case kString:
		return "string"
	case kInt:
		return "int64"
	case kFloat:
		return "float64"
	case kNumber:
		return "attributevalue.Number"
	case kBool:
		return "bool"
	case kBytes:
		return "[]byte"
	case kStringSet:
		return "[]string"
	case kIntSet:
		return "[]int64"
	case kFloatSet:
		return "[]float64"
	case kNumberSet:
		return "[]attributevalue.Number"
	case kBytesSet:
		return "[][]byte"
	case kList:
		return "[]" + g.typeName(t.elem)
	case kMap:
		return "map[string]" + g.typeName(t.elem)
	case kStruct:
		return t.st.name
	}
	return "Value"
}

// itemJSON writes an item in DynamoDB JSON, its attributes in order, its
// text as it is (no HTML escapes).
func itemJSON(av map[string]types.AttributeValue) string {
	var b strings.Builder
	writeJSONValue(&b, &types.AttributeValueMemberM{Value: av}, true)
	return b.String()
}

func writeJSONValue(b *strings.Builder, v types.AttributeValue, bare bool) {
	str := func(s string) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(s) // a string always encodes
		b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	list := func(n int, each func(int)) {
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			each(i)
		}
		b.WriteByte(']')
	}
	typ := avType(v)
	if !bare {
		b.WriteString(`{"` + typ + `":`)
	}
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		str(v.Value)
	case *types.AttributeValueMemberN:
		str(v.Value)
	case *types.AttributeValueMemberB:
		str(base64.StdEncoding.EncodeToString(v.Value))
	case *types.AttributeValueMemberBOOL:
		b.WriteString(strconv.FormatBool(v.Value))
	case *types.AttributeValueMemberNULL:
		b.WriteString(strconv.FormatBool(v.Value))
	case *types.AttributeValueMemberSS:
		list(len(v.Value), func(i int) { str(v.Value[i]) })
	case *types.AttributeValueMemberNS:
		list(len(v.Value), func(i int) { str(v.Value[i]) })
	case *types.AttributeValueMemberBS:
		list(len(v.Value), func(i int) { str(base64.StdEncoding.EncodeToString(v.Value[i])) })
	case *types.AttributeValueMemberL:
		list(len(v.Value), func(i int) { writeJSONValue(b, v.Value[i], false) })
	case *types.AttributeValueMemberM:
		b.WriteByte('{')
		for i, k := range sortedKeys(v.Value) {
			if i > 0 {
				b.WriteByte(',')
			}
			str(k)
			b.WriteByte(':')
			writeJSONValue(b, v.Value[k], false)
		}
		b.WriteByte('}')
	}
	if !bare {
		b.WriteByte('}')
	}
}

// hasSets reports whether any item of the package holds a set.
func (g *generator) hasSets() bool {
	var walk func(types.AttributeValue) bool
	walk = func(v types.AttributeValue) bool {
		switch v := v.(type) {
		case *types.AttributeValueMemberSS, *types.AttributeValueMemberNS, *types.AttributeValueMemberBS:
			return true
		case *types.AttributeValueMemberL:
			return slices.ContainsFunc(v.Value, walk)
		case *types.AttributeValueMemberM:
			for _, e := range v.Value {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	for _, t := range g.m.tables {
		for _, it := range t.items {
			for _, v := range it.av {
				if walk(v) {
					return true
				}
			}
		}
	}
	return false
}

// goString is s as a Go string literal, raw where it can be.
func goString(s string) string {
	if !strings.Contains(s, "`") && !strings.Contains(s, "\r") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// keyRows writes e's key templates to w, one line each after indent: the
// table's keys, then each index key the item type writes (a local index
// shares the table's partition key), attribute names aligned.
func keyRows(w io.Writer, indent string, t *table, e *entity) {
	rows := [][2]string{{t.pk, template(e.pk)}, {t.sk, template(e.sk)}}
	for _, k := range e.indexes {
		if !k.ix.local {
			rows = append(rows, [2]string{k.ix.pk, template(k.pk)})
		}
		if k.ix.sk != "" {
			rows = append(rows, [2]string{k.ix.sk, template(k.sk)})
		}
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%s%-*s  %s\n", indent, width, r[0], r[1])
	}
}
