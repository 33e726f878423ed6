package main

import (
	"fmt"
	"go/token"
	"slices"
	"strings"
)

// generator turns one parsed model into a Go package.
type generator struct {
	m      *model
	pkg    string // the package name
	source string // the model file's name, or "table NAME", for the comments
	// live is set when the model was read from a live table (-table): its
	// items are a sample of the table's data.
	live bool
	// synthesize makes the generated test write items made from the
	// inferred types, not the sample items, and keeps the sample's values
	// out of the generated files (-table without -embed-samples).
	synthesize bool
	tnames     map[*table]*tableNames
	names      names
}

// tableNames are the Go names of one table's declarations.
type tableNames struct {
	model, newModel, tableConst string
	// prefixUpper and prefixLower start the names of the table's tests
	// and test variables when the package holds several tables.
	prefixUpper, prefixLower string
	patterns                 []*pattern
}

// reserved are names the generated files declare themselves, and Table,
// the field of every Model holding its table, which no entity's field may
// be named.
var reserved = []string{"Value", "TestMain", "TestModel", "TestWrittenByEntities", "TestWrittenByOtherPrograms", "TestAccessPatterns", "TestNewItems", "Table"}

// generate infers the package for the Workbench model src, named pkg;
// source names the model file in the comments. notes are the choices and
// ambiguities to report. A model the command cannot model is an
// errBadInput.
func generate(src []byte, pkg, source string) (files []source, notes []string, err error) {
	g, err := build(src, pkg, source)
	if err != nil {
		return nil, nil, err
	}
	files, err = g.render()
	return files, g.notes(), err
}

// checkPackage refuses a package name the generated package cannot have.
func checkPackage(pkg string) error {
	switch {
	case !token.IsIdentifier(pkg) || token.IsKeyword(pkg) || pkg == "_":
		return badInput("package name %q is not a Go identifier", pkg)
	case pkg == "main":
		return badInput("package name main: the generated package is imported by the program that uses it, and a main package cannot be imported")
	}
	return nil
}

// build parses and infers the model src.
func build(src []byte, pkg, source string) (*generator, error) {
	if err := checkPackage(pkg); err != nil {
		return nil, err
	}
	m, err := parseModel(src)
	if err != nil {
		return nil, err
	}
	return inferModel(m, pkg, source)
}

// buildFile checks and infers the data model f, as read from a live table
// (readTable).
func buildFile(f *wbFile, pkg, source string) (*generator, error) {
	if err := checkPackage(pkg); err != nil {
		return nil, err
	}
	m, err := modelOf(f)
	if err != nil {
		return nil, err
	}
	return inferModel(m, pkg, source)
}

// inferModel infers the item types, keys, Go types and access patterns of m.
func inferModel(m *model, pkg, source string) (*generator, error) {
	g := &generator{m: m, pkg: pkg, source: source, tnames: map[*table]*tableNames{}, names: names{used: map[string]bool{}, owner: map[string]string{}}}
	for _, r := range reserved {
		g.names.used[r] = true
		g.names.owner[r] = "the generated code's own"
	}
	g.names.owner["Table"] = "the Model's field holding the table"
	for _, t := range m.tables {
		if err := t.infer(); err != nil {
			return nil, err
		}
	}
	g.name()
	for _, t := range m.tables {
		for _, e := range slices.Concat(t.entities, t.undeclared) {
			if err := t.typeData(e); err != nil {
				return nil, err
			}
			g.nameStructs(e.st)
		}
		g.tnames[t].patterns = g.patterns(t)
	}
	return g, nil
}

// notes are the lines the command writes on stderr: every choice and
// ambiguity, each once, in the order met.
func (g *generator) notes() []string {
	var notes []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			notes = append(notes, n)
		}
	}
	for _, t := range g.m.tables {
		prefix := "adjlist-gen: "
		if len(g.m.tables) > 1 {
			prefix += "table " + t.name + ": "
		}
		for _, n := range t.notes {
			add(prefix + n)
		}
		for _, e := range slices.Concat(t.entities, t.undeclared) {
			for _, n := range e.notes {
				add(prefix + n)
			}
		}
		for _, p := range g.tnames[t].patterns {
			if p.why != "" {
				add(fmt.Sprintf("%saccess pattern %q has no method: %s", prefix, p.name, p.why))
			}
		}
	}
	return notes
}

// name gives every table and entity its Go names, each unique in the
// package: a name another declaration has gets a number, and a note
// saying why.
func (g *generator) name() {
	bases := map[string]bool{}    // the tables' Go names, in lower case
	baseOf := map[string]string{} // which table has each
	for _, t := range g.m.tables {
		n := &tableNames{model: "Model", newModel: "NewModel", tableConst: "TableName"}
		if len(g.m.tables) > 1 {
			want := goName(t.name)
			// Unique in any case: the tests' variables start with it in
			// lower case (tTableData for both T and t).
			base := uniqueName(want, bases)
			if base != want {
				t.note("the Go names of table %s start with %s: %s is taken by table %s (the tests' names start with it in lower case)", t.name, base, want, baseOf[strings.ToLower(want)])
			}
			baseOf[strings.ToLower(base)] = t.name
			n.model, n.newModel, n.tableConst = base+"Model", "New"+base+"Model", base+"TableName"
			n.prefixUpper, n.prefixLower = base, lowerFirst(base)
		}
		what := "table " + t.name + "'s declarations"
		n.model, n.newModel, n.tableConst = g.take(t, nil, n.model, what), g.take(t, nil, n.newModel, what), g.take(t, nil, n.tableConst, what)
		g.tnames[t] = n
	}
	for _, t := range g.m.tables {
		for _, e := range slices.Concat(t.entities, t.undeclared) {
			name := goName(e.name)
			if strings.HasPrefix(name, "Test") {
				name = "Item" + name
			}
			e.goName = g.take(t, e, name, "item type "+e.name)
		}
	}
}

// take gives what (a table's declarations, an item type) the Go name
// want, or want with a number where another declaration has it; a changed
// name is noted on e, else on t.
func (g *generator) take(t *table, e *entity, want, what string) string {
	got := g.names.take(want)
	g.names.owner[got] = what
	if got == want {
		return got
	}
	owner := g.names.owner[want]
	if owner == "" {
		owner = "another declaration"
	}
	note := fmt.Sprintf("the Go name of %s is %s: %s is taken by %s", what, got, want, owner)
	if e != nil {
		e.notes = append(e.notes, note)
	} else {
		t.note("%s", note)
	}
	return got
}

// nameStructs gives the structs of st's fields package-wide unique names.
func (g *generator) nameStructs(st *structType) {
	for _, f := range st.fields {
		for t := f.t; t != nil; t = t.elem {
			if t.st != nil {
				t.st.name = g.names.take(t.st.name)
				g.nameStructs(t.st)
			}
		}
	}
}
