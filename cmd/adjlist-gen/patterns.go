package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// pattern is one access pattern a model lists in its description, as
// adjlist's workbench export writes them:
//
//   - get one STU: Node.Get, GetItem PK = "STU#<id>" AND SK = "PROFILE" on table
//
// and the function that serves it, or why none does.
type pattern struct {
	name   string // "get one STU"
	text   string // the request, "GetItem PK = ... on table"
	why    string // why no function serves it; "" when one does
	method string // the Model's method
	e      *entity
	kind   string // "get", "list", "index" or "all"
	index  string // the index it reads, "" for the table
	params []param
	desc   bool
	notes  []string // what the caller adds: a filter, a range, a projection
	all    []*entity
}

// param is one argument of a pattern's method: the value of a {name}
// of the entity's templates, or of an attribute as the items hold it.
type param struct {
	name, typ string
	v         *kvar
	attr      string
	sample    string // its value on a sample item, as a Go literal
}

var (
	eqRE      = regexp.MustCompile(`([^\s()"]+) = ("(?:[^"\\]|\\.)*")`)
	beginsRE  = regexp.MustCompile(`begins_with ?\(([^,\s()]+), ("(?:[^"\\]|\\.)*")\)`)
	betweenRE = regexp.MustCompile(`([^\s()"]+) BETWEEN ("(?:[^"\\]|\\.)*") AND`)
	holeRE    = regexp.MustCompile(`<[^<>]*>|\{[^{}]*\}`)
)

// patterns reads the access patterns of t's model's description and
// finds the entity serving each.
func (g *generator) patterns(t *table) []*pattern {
	desc := g.m.description
	i := strings.Index(desc, "Access patterns:")
	if i < 0 {
		return nil
	}
	var out []*pattern
	used := map[string]bool{"Table": true}
	for _, e := range t.entities {
		used[e.goName] = true
	}
	for _, line := range strings.Split(desc[i:], "\n")[1:] {
		line, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			continue
		}
		p := g.pattern(t, line)
		if p == nil {
			continue
		}
		if p.why == "" {
			p.method = uniqueGo(methodName(p.name), used)
		}
		out = append(out, p)
	}
	return out
}

// methodName makes a pattern's name a method name: "STU's ENROLL edges
// to CRS (forward)" → STUEnrollEdgesToCRSForward.
func methodName(name string) string {
	name = strings.ReplaceAll(name, "'s ", " ")
	n := goName(name)
	if n == "Field" {
		return "Pattern"
	}
	return n
}

// pattern reads one pattern line: "name: call, request on target".
func (g *generator) pattern(t *table, line string) *pattern {
	name, rest, ok := strings.Cut(line, ": ")
	if !ok {
		return nil
	}
	p := &pattern{name: name}
	depth, cut := 0, -1
	for i, r := range rest {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 && cut < 0 {
				cut = i
			}
		}
	}
	if cut < 0 {
		return nil
	}
	req := strings.TrimSpace(rest[cut+1:])
	p.text = req
	on := strings.LastIndex(req, " on ")
	if on < 0 {
		p.why = "its request names no table or index"
		return p
	}
	target := strings.TrimSuffix(req[on+4:], " (eventually consistent)")
	body := req[:on]
	switch {
	case strings.Contains(body, "Queries in parallel"):
		p.why = "it reads an index partition spread over shards; the shard is an attribute kept only in the keys, which the caller must give"
		return p
	case !strings.HasPrefix(body, "GetItem") && !strings.HasPrefix(body, "Query"):
		p.why = "its request is neither a GetItem nor a Query"
		return p
	}
	p.desc = strings.Contains(body, "ScanIndexForward=false")
	cond, extra, _ := strings.Cut(body, "; ")
	for _, x := range strings.Split(extra, "; ") {
		switch {
		case strings.HasPrefix(x, "filter "):
			p.notes = append(p.notes, fmt.Sprintf("its filter, %s, is the caller's to add with Filter", strings.TrimPrefix(x, "filter ")))
		case strings.HasPrefix(x, "projection "):
			p.notes = append(p.notes, fmt.Sprintf("its projection, %s, is the caller's to add with Project", strings.TrimPrefix(x, "projection ")))
		}
	}
	eqs := eqRE.FindAllStringSubmatch(cond, -1)
	if len(eqs) == 0 {
		p.why = "its key condition names no partition key"
		return p
	}
	pkAttr, pkVal := eqs[0][1], unquote(eqs[0][2])
	var skExact, skPrefix string
	exact := false
	if len(eqs) > 1 && eqs[1][1] != pkAttr {
		skExact, exact = unquote(eqs[1][2]), true
	}
	if m := beginsRE.FindStringSubmatch(cond); m != nil {
		skPrefix = unquote(m[2])
	}
	if m := betweenRE.FindStringSubmatch(cond); m != nil {
		lo := unquote(m[2])
		skPrefix, _, _ = strings.Cut(lo, "<")
		p.notes = append(p.notes, fmt.Sprintf("its range, %s BETWEEN ..., is the caller's to add with Between or GreaterThanEqual", m[1]))
	}
	get := strings.HasPrefix(body, "GetItem")
	if get && !exact {
		p.why = "its GetItem names no sort key"
		return p
	}
	var ix *index
	if target != "table" {
		for _, x := range t.indexes {
			if x.name == target {
				ix = x
			}
		}
		if ix == nil {
			p.why = fmt.Sprintf("it reads %s, which the model declares no index of", target)
			return p
		}
		p.index = ix.name
	}
	skAttr := t.sk
	if ix != nil {
		skAttr = ix.sk
	}
	for _, e := range t.entities {
		pk, free, ok := g.spelled(t, e, ix, pkAttr)
		if !ok || !free && marked(template(pk)) != marked(pkVal) {
			continue
		}
		if exact || skPrefix != "" {
			sk, skFree, ok := g.spelled(t, e, ix, skAttr)
			if !ok {
				continue
			}
			if !skFree && exact && marked(template(sk)) != marked(skExact) {
				continue
			}
			if !skFree && !exact && !strings.HasPrefix(marked(template(sk)), skPrefix) {
				continue
			}
		}
		p.all = append(p.all, e)
	}
	if len(p.all) == 0 {
		p.why = fmt.Sprintf("no item type's keys are spelled %s = %q", pkAttr, pkVal)
		return p
	}
	p.e = p.all[0]
	e := p.e
	pk, free, _ := g.spelled(t, e, ix, pkAttr)
	switch {
	case get:
		p.kind = "get"
		for _, v := range fieldsOf(e) {
			p.params = append(p.params, param{name: v.name, typ: "string", v: v})
		}
	case ix == nil:
		p.kind = "list"
		for _, v := range distinctVars(e.pk) {
			p.params = append(p.params, param{name: v.name, typ: "string", v: v})
		}
	default:
		p.kind = "index"
		switch {
		case free:
			typ := "string"
			if ix.pkType == "N" {
				typ = "int64"
			}
			p.params = []param{{name: pkAttr, typ: typ, attr: pkAttr}}
		case !ix.derived && t.derived[pkAttr]:
			p.params = []param{{name: pkAttr, typ: "string", attr: pkAttr}} // the whole derived value
		case ix.derived:
			for _, part := range pk {
				if part.v != nil {
					p.params = append(p.params, param{name: part.v.name, typ: "string", v: part.v})
				}
			}
		default:
			for _, v := range distinctVars(pk) {
				p.params = append(p.params, param{name: v.name, typ: "string", v: v})
			}
		}
	}
	if len(p.all) > 1 && !get {
		p.kind = "all"
	}
	if !p.samples() {
		p.why = "no sample item has every value it takes"
	}
	return p
}

// samples fills p's parameters with the values of the first item of its
// entity that has them all.
func (p *pattern) samples() bool {
	for i, it := range p.e.items {
		vals := make([]string, len(p.params))
		ok := true
		for j, prm := range p.params {
			if prm.v != nil {
				vals[j] = prm.v.vals[i]
			} else {
				vals[j], _ = keyText(it.av[prm.attr])
			}
			ok = ok && vals[j] != ""
		}
		if !ok {
			continue
		}
		for j := range p.params {
			if p.params[j].typ == "int64" {
				p.params[j].sample = vals[j]
			} else {
				p.params[j].sample = strconv.Quote(vals[j])
			}
		}
		return true
	}
	return false
}

// spelled is how e spells the key attribute attr on the table (ix nil)
// or index ix: its template, or free for a native index's data
// attribute, which e's items hold as they are; ok is false when e's
// items have none.
func (g *generator) spelled(t *table, e *entity, ix *index, attr string) (tpl []tpart, free, ok bool) {
	switch attr {
	case t.pk:
		return e.pk, false, true
	case t.sk:
		return e.sk, false, true
	}
	for _, k := range e.indexes {
		if k.ix.pk == attr {
			return k.pk, false, true
		}
		if k.ix.sk == attr {
			return k.sk, false, true
		}
	}
	if ix == nil || ix.derived || t.derived[attr] {
		return nil, false, false
	}
	for _, it := range e.items {
		if _, has := it.av[attr]; has {
			return nil, true, true
		}
	}
	return nil, false, false
}

// marked is a key with each <placeholder> or {name} as one marker, so
// that a pattern's key and a template compare.
func marked(s string) string { return holeRE.ReplaceAllString(s, "\x00") }

func unquote(q string) string {
	s, err := strconv.Unquote(q)
	if err != nil {
		return strings.Trim(q, `"`)
	}
	return s
}

// fieldsOf are e's key fields in adjlist's order: its partition key's
// {names}, then its sort key's others.
func fieldsOf(e *entity) []*kvar {
	return distinctVars(slices.Concat(e.pk, e.sk))
}

func distinctVars(parts []tpart) []*kvar {
	var out []*kvar
	for _, p := range parts {
		if p.v != nil && !slices.Contains(out, p.v) {
			out = append(out, p.v)
		}
	}
	return out
}

// goParam makes a parameter name of an attribute name.
func goParam(name string, used map[string]bool) string {
	n := lowerFirst(goName(name))
	switch n {
	case "ctx", "m", "adjlist", "context", "break", "case", "chan", "const", "continue", "default", "defer", "else", "fallthrough", "for", "func", "go", "goto",
		"if", "import", "interface", "map", "package", "range", "return", "select", "struct", "switch", "type", "var":
		n += "Value"
	}
	return uniqueGo(n, used)
}

// patternsGo writes the Model's method for each access pattern of t,
// and a comment for each that has none.
func (g *generator) patternsGo(w *emitter, t *table) {
	n := g.tnames[t]
	ps := n.patterns
	if len(ps) == 0 {
		if !strings.Contains(g.m.description, "Access patterns:") {
			w.comment("", fmt.Sprintf("The data model lists no access patterns, so %s has no method per pattern: each entity's Get, List and ByIndex serve the reads.", n.model))
			w.p("")
		}
		return
	}
	for _, p := range ps {
		if p.why != "" {
			w.comment("", fmt.Sprintf("The access pattern %q (%s) has no method: %s.", p.name, p.text, p.why))
			w.p("")
			continue
		}
		used := map[string]bool{}
		var args, names []string
		for i := range p.params {
			pn := goParam(p.params[i].name, used)
			args = append(args, pn+" "+p.params[i].typ)
			names = append(names, pn)
		}
		doc := fmt.Sprintf("%s serves the access pattern %q: %s.", p.method, p.name, p.text)
		if len(p.all) > 1 && p.kind == "all" {
			var ents []string
			for _, e := range p.all {
				ents = append(ents, e.goName)
			}
			doc += fmt.Sprintf(" It reads items of %s: decode them with adjlist.Load and each entity's Into.", strings.Join(ents, ", "))
		}
		for _, note := range p.notes {
			doc += " " + upperFirst(note) + "."
		}
		w.comment("", doc)
		e := p.e
		desc := ""
		if p.desc {
			desc = ".Desc()"
		}
		switch p.kind {
		case "get":
			w.p("func (m *%s) %s(ctx context.Context, %s) (%s, error) {", n.model, p.method, strings.Join(args, ", "), e.goName)
			w.p("return m.%s.Get(ctx, adjlist.IDs{%s})", e.goName, strings.Join(names, ", "))
		case "list":
			w.p("func (m *%s) %s(%s) adjlist.Query[adjlist.EntityItem[%s]] {", n.model, p.method, strings.Join(args, ", "), e.goName)
			w.p("return m.%s.List(%s)%s", e.goName, strings.Join(names, ", "), desc)
		case "index":
			w.p("func (m *%s) %s(%s) adjlist.Query[adjlist.EntityItem[%s]] {", n.model, p.method, strings.Join(args, ", "), e.goName)
			w.p("return m.%s.ByIndex(%q, %s)%s", e.goName, p.index, strings.Join(names, ", "), desc)
		case "all":
			read := fmt.Sprintf("m.%s.List(%s)", e.goName, strings.Join(names, ", "))
			if p.index != "" {
				read = fmt.Sprintf("m.%s.ByIndex(%q, %s)", e.goName, p.index, strings.Join(names, ", "))
			}
			w.p("func (m *%s) %s(%s) adjlist.Query[adjlist.Item] {", n.model, p.method, strings.Join(args, ", "))
			w.p("return adjlist.AllTypes(%s)%s", read, desc)
		}
		w.p("}")
		w.p("")
	}
}

// patternTests writes a test running every access pattern of t on the
// sample items.
func (g *generator) patternTests(w *emitter, t *table) {
	n := g.tnames[t]
	var ps []*pattern
	for _, p := range n.patterns {
		if p.why == "" {
			ps = append(ps, p)
		}
	}
	if len(ps) == 0 {
		return
	}
	data := "tableData"
	if n.prefixLower != "" {
		data = n.prefixLower + "TableData"
	}
	w.p(`// Test%sAccessPatterns runs every access pattern's method on the
// sample items, written with plain PutItem: each finds what it reads.
func Test%sAccessPatterns(t *testing.T) {
	ctx := t.Context()
	db := ddbtest.Client(t)
	m := %s(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, m.Table)
	for _, item := range parseItems(t, %s) {
		_, err := db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(m.Table.Name()), Item: item})
		require.NoError(t, err)
	}`, n.prefixUpper, n.prefixUpper, n.newModel, data)
	for _, p := range ps {
		var args []string
		for _, prm := range p.params {
			args = append(args, prm.sample)
		}
		w.p("t.Run(%q, func(t *testing.T) {", p.name)
		if p.kind == "get" {
			w.p("_, err := m.%s(ctx, %s)", p.method, strings.Join(args, ", "))
			w.p("require.NoError(t, err)")
		} else {
			w.p("requireFinds(t, m.%s(%s))", p.method, strings.Join(args, ", "))
		}
		w.p("})")
	}
	w.p("}")
	w.p("")
	if g.firstPatternTable() != t {
		return
	}
	w.raw(`// requireFinds runs q until it finds an item: an index is eventually
// consistent.
func requireFinds[T any](t *testing.T, q adjlist.Query[T]) {
	t.Helper()
	require.Eventually(t, func() bool {
		items, err := q.Collect(t.Context())
		require.NoError(t, err)
		return len(items) > 0
	}, 10*time.Second, 20*time.Millisecond)
}
`)
}

// firstPatternTable is the first table with a method per pattern.
func (g *generator) firstPatternTable() *table {
	for _, t := range g.m.tables {
		for _, p := range g.tnames[t].patterns {
			if p.why == "" {
				return t
			}
		}
	}
	return nil
}

// hasPatternMethods reports whether a "get" method needs context.
func (g *generator) hasGetPattern() bool {
	for _, t := range g.m.tables {
		for _, p := range g.tnames[t].patterns {
			if p.why == "" && p.kind == "get" {
				return true
			}
		}
	}
	return false
}
