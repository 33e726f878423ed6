package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// redeclared lists the names the generated files declare twice: in the
// package (both files), as fields of one struct, or as a field and a
// method of one type; nil when each is declared once.
func redeclared(t *testing.T, files []source) []string {
	t.Helper()
	fset := token.NewFileSet()
	var dup []string
	pkg := map[string]bool{}
	members := map[string]map[string]bool{} // type → its fields and methods
	member := func(typ, name string) {
		if members[typ] == nil {
			members[typ] = map[string]bool{}
		}
		if members[typ][name] {
			dup = append(dup, typ+"."+name)
		}
		members[typ][name] = true
	}
	top := func(name string) {
		if name == "_" {
			return
		}
		if pkg[name] {
			dup = append(dup, name)
		}
		pkg[name] = true
	}
	for _, f := range files {
		af, err := parser.ParseFile(fset, f.name, f.text, 0)
		require.NoError(t, err, f.name)
		for _, d := range af.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					top(d.Name.Name)
					continue
				}
				recv := d.Recv.List[0].Type
				if s, ok := recv.(*ast.StarExpr); ok {
					recv = s.X
				}
				member(recv.(*ast.Ident).Name, d.Name.Name)
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						top(s.Name.Name)
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								for _, n := range fl.Names {
									member(s.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							top(n.Name)
						}
					}
				}
			}
		}
	}
	return dup
}

// TestGoNamesUnique: every Go name of a generated package is declared
// once, whatever the model's names: an item type named Table (the
// Model's field holding the table), or named as a table's declarations,
// and two tables whose names make one Go name (Orders and orders) get a
// number,
// and a note on stderr and in the code saying why.
func TestGoNamesUnique(t *testing.T) {
	for name, c := range map[string]struct {
		model string
		notes []string
	}{
		"an item type named Table": {strings.Replace(tinyModel, `"TableName": "tiny"`, `"TableName": "Table"`, 1),
			[]string{"the Go name of item type Table is Table2: Table is taken by the Model's field holding the table"}},
		"names in two tables": {readFile(t, "testdata/variants/names.json"), []string{
			"table Orders: the Go name of item type Table is Table2: Table is taken by the Model's field holding the table",
			"table Orders: the Go name of item type OrdersModel is OrdersModel2: OrdersModel is taken by table Orders's declarations",
			"table orders: the Go names of table orders start with Orders2: Orders is taken by table Orders (the tests' names start with it in lower case)",
		}},
	} {
		t.Run(name, func(t *testing.T) {
			files, notes, err := generate([]byte(c.model), "model", "model.json")
			require.NoError(t, err)
			assert.Empty(t, redeclared(t, files))
			code := strings.Join(strings.Fields(strings.ReplaceAll(string(files[0].text), "\n//", " ")), " ")
			for _, n := range c.notes {
				assert.Contains(t, notes, "adjlist-gen: "+n)
				_, note, _ := strings.Cut(n, ": ")
				if !strings.HasPrefix(n, "table ") {
					note = n
				}
				assert.Contains(t, code, note, "model.go says so")
			}
		})
	}
}

// TestGoNamesReadAsGo: Go names as a Go reviewer expects them: a type in
// CamelCase from its item type's name, initialisms in capitals (GSI2,
// ID), a numbered type only with a comment saying why.
func TestGoNamesReadAsGo(t *testing.T) {
	for in, want := range map[string]string{
		"BRAND":                      "Brand",
		"OFFER":                      "Offer",
		"ORDER_ITEM":                 "OrderItem",
		"orderItem":                  "OrderItem",
		"gsi2WarehouseID":            "GSI2WarehouseID",
		"gsi1PKPart1":                "GSI1PKPart1",
		"GSI1PK":                     "GSI1PK",
		"GSI2-SK":                    "GSI2SK",
		"comm_id":                    "CommID",
		"imageUrl":                   "ImageURL",
		"USA":                        "USA",
		"productId":                  "ProductID",
		"node_STU":                   "NodeSTU",
		"edge_LIVES_IN_PERSON_PLACE": "EdgeLivesInPersonPlace",
		"edge_HAS_PERSON_SKILL":      "EdgeHasPersonSkill",
		"edge_ENROLL_STU_CRS":        "EdgeEnrollSTUCRS",
	} {
		assert.Equal(t, want, goName(in), in)
	}

	g, err := build([]byte(wbModel(
		map[string]string{"PK": "BRANDS", "SK": "B#1", "type": "BRAND", "name": "Tesla"},
		map[string]string{"PK": "BRANDS", "SK": "B#2", "type": "BRAND", "name": "Google"},
		map[string]string{"PK": "OFFER#1", "SK": "OFFER#1", "type": "OFFER", "GSI1PK": "ACCT#9", "GSI1SK": "OFFER#1"},
		map[string]string{"PK": "OFFER#2", "SK": "OFFER#2", "type": "OFFER", "GSI1PK": "ACCT#8", "GSI1SK": "OFFER#2"},
		map[string]string{"PK": "OFFER#3", "SK": "OFFER#3#ITEM#1", "type": "OFFER", "GSI1PK": "ACCT#8", "GSI1SK": "OFFER#3"},
	)), "model", "m.json")
	require.NoError(t, err)
	var got []string
	for _, e := range g.m.tables[0].entities {
		got = append(got, e.goName)
	}
	assert.Equal(t, []string{"Brand", "Offer", "Offer2"}, got)
	for _, e := range g.m.tables[0].entities {
		for _, f := range e.st.fields {
			assert.NotRegexp(t, `^Gsi|^X\d`, f.goName, e.goName)
		}
	}

	// A part named for its place in an index key that some items lack
	// is not named for the index twice (Gsi1Gsi1PKPart1).
	g, err = build([]byte(wbModel(
		map[string]string{"PK": "T#1", "SK": "META", "GSI1PK": "12#9", "GSI1SK": "x"},
		map[string]string{"PK": "T#2", "SK": "META", "GSI1PK": "13#8", "GSI1SK": "y"},
		map[string]string{"PK": "T#3", "SK": "META"},
	)), "model", "m.json")
	require.NoError(t, err)
	var fields []string
	for _, f := range g.m.tables[0].entities[0].st.fields {
		fields = append(fields, f.goName)
	}
	assert.Contains(t, fields, "GSI1PKPart1")

	files, _, err := generate([]byte(twoShapes), "model", "m.json")
	require.NoError(t, err)
	code := strings.Join(strings.Fields(strings.ReplaceAll(string(files[0].text), "\n//", " ")), " ")
	assert.Contains(t, code, "Equipment2 is numbered: its items are of facet equipment, as Equipment's are, but their keys have another shape")
}
