// Command graph is the materialized graph pattern of the AWS developer guide
// (the AWS developer guide's materialized graph): people with birth dates, skills and places, and
// who knows whom, in one table and the design's two global secondary
// indexes, with a third, ByCount, for the skills by how many people have
// them.
//
// Every node is a partition that holds the node's own item and its edge
// items. An edge item's sort key is its Type and its Target together, the
// "TypeTarget" (KNOWS#PERSON#bob: Type KNOWS, Target PERSON#bob), which
// identifies it in its partition on the table and in GSI2, the inverse
// direction, keyed on TypeTarget and PK:
//
//	PK            TypeTarget             Data                 Node
//	PERSON#ada    PERSON#ada             NAME#Ada Okafor      PERSON#ada    name
//	PERSON#ada    BORN#1990-12-10        BORN#1990-12-10#02   PERSON#ada
//	PERSON#ada    HAS#SKILL#go           SKILL#go#00          PERSON#ada    level
//	PERSON#ada    KNOWS#PERSON#bob                                          since
//	PERSON#ada    LIVES_IN#PLACE#london  PLACE#london         PERSON#ada    since
//	SKILL#go      SKILL#go               NAME#Go              SKILL#go      name
//	...
//
// GSI1 is on the Data attribute, overloaded: one index answers lookups by
// name (NAME#…), by birth date (BORN#…), by place (PLACE#…) and by skill
// (SKILL#…). Its sort key Node is the node the item belongs to, so every
// GSI1 partition lists nodes in key order. The two large aggregations,
// everyone born on a date and everyone with a skill, are sharded over 4
// logical partitions each (BORN#1990-12-10#00 … #03), written spread and
// read back merged.
//
// GSI2 holds every item under its TypeTarget, so it has one partition per
// skill too (HAS#SKILL#go): writes to a very popular skill land there
// unsharded, the price of the design's inverse index on the sort key. Reads
// of the large aggregations go to GSI1's shards; GSI2 answers "who points
// at a target" (who knows bob) for targets of ordinary size.
//
// Every key attribute but PK and TypeTarget is derived by adjlist from the
// model (adjlist.IndexKeys, and an ItemCounter's counter and count, which
// ByCount is keyed on): no item is written by hand. Each access pattern
// prints what it cost:
//   - a person's whole neighbourhood: 1 Query on the table (LoadPartition);
//   - everyone with a skill: 4 Queries in parallel on GSI1, merged;
//   - everyone born on a date: 4 Queries in parallel on GSI1, merged;
//   - everyone in a place (lives or works there): 1 Query on GSI1 into two
//     typed slices (PageIndex);
//   - a person by name: 1 Query on GSI1;
//   - who knows a person (who points at a target): 1 Query on GSI2;
//   - the top skills: 1 Query on ByCount of the count items the PEOPLE
//     counter keeps in each skill's partition (a HAS edge and its skill's
//     count are written in one transaction).
//
// Index reads are eventually consistent: on real DynamoDB (-aws) a first
// run's index reads can miss items it wrote a moment before; DynamoDB
// Local shows no lag.
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/graph [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
//
// -describe prints the model (adjlist.Describe, and GSI1's keys per item
// type) and its Mermaid diagram without touching DynamoDB; -workbench and
// -cloudformation write it as a NoSQL Workbench data model and a
// CloudFormation template.
//
// -verify, after the run, checks every item of the table against the model
// (adjlist.Verify), prints the items scanned and each finding, and exits
// with status 1 if there is any; with -cleanup, the table is deleted after
// the check. -cleanup, -aws and -verify beside -describe are usage errors
// (status 2; `go run` then exits 1).
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Person is a person's own item: PK = TypeTarget = PERSON#<id>.
type Person struct {
	Name string `dynamodbav:"name"`
}

// Skill is a skill's own item: PK = TypeTarget = SKILL#<id>.
type Skill struct {
	Name string `dynamodbav:"name"`
}

// Place is a place's own item: PK = TypeTarget = PLACE#<id>.
type Place struct {
	Name    string `dynamodbav:"name"`
	Country string `dynamodbav:"country"`
}

// Birth is a person's birth-date item, PK = PERSON#<id>, TypeTarget =
// BORN#<date>: an edge to a value rather than to a node (a child of the
// person in adjlist's terms), with no data of its own.
type Birth struct{}

// Knows is an edge's data: PK = PERSON#<from>, TypeTarget =
// KNOWS#PERSON#<to>.
type Knows struct {
	Since string `dynamodbav:"since"`
}

// HasSkill is an edge's data: PK = PERSON#<from>, TypeTarget =
// HAS#SKILL#<to>.
type HasSkill struct {
	Level string `dynamodbav:"level"`
}

// LivesIn is an edge's data: PK = PERSON#<from>, TypeTarget =
// LIVES_IN#PLACE#<to>.
type LivesIn struct {
	Since string `dynamodbav:"since"`
}

// WorksIn is an edge's data: PK = PERSON#<from>, TypeTarget =
// WORKS_IN#PLACE#<to>.
type WorksIn struct {
	Role string `dynamodbav:"role"`
}

var example = exampleutil.Example{Name: "graph", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// The three global secondary indexes.
const (
	// byData is the design's first GSI, on the overloaded Data attribute.
	byData = "GSI1"
	// inverse is the design's second GSI: TypeTarget (partition), PK (sort).
	inverse = "GSI2"
	// byCount lists aggregate items by their count: a native index on the
	// counter name (partition) and the count, a number (sort).
	byCount = "ByCount"
)

// shards is how many GSI1 partitions a birth date and a skill are spread
// over: enough that no date or skill makes one index partition hot.
const shards = 4

// model is the materialized graph: the table, its node types, and the edge
// types with their Type. Declaring it makes no request.
type model struct {
	table   *adjlist.Table
	persons *adjlist.Node[Person]
	skills  *adjlist.Node[Skill]
	places  *adjlist.Node[Place]
	born    *adjlist.Collection[Birth, Person]
	knows   *adjlist.Edge[Knows]
	has     *adjlist.Edge[HasSkill]
	livesIn *adjlist.Edge[LivesIn]
	worksIn *adjlist.Edge[WorksIn]
	// people counts the HAS edges into each skill, on an aggregate item
	// in the skill's partition (PK = SKILL#go, TypeTarget = PEOPLE),
	// updated in the same transaction as each edge; counts reads those
	// items as nodes of the skill type with marker PEOPLE.
	people *adjlist.ItemCounter
	counts *adjlist.Node[adjlist.Count]
}

func newModel(db adjlist.Client, tableName string) model {
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		// The table's sort key is the TypeTarget, and the inverse index
		// is keyed on it: GSI2 partition = TypeTarget, sort = PK. An edge's
		// partition there lists everything that points at its target.
		o.SortKey = "TypeTarget"
		o.Index, o.IndexPartitionKey, o.IndexSortKey = inverse, "TypeTarget", "PK"
		// GSI1: Data (partition), Node (sort), both derived from the
		// templates below.
		o.Indexes = []adjlist.Index{
			{Name: byData, PartitionKey: "Data", SortKey: "Node"},
			{Name: byCount, PartitionAttributes: []adjlist.KeyAttribute{{Name: "counter"}},
				SortAttributes: []adjlist.KeyAttribute{{Name: "count", Type: "N"}}},
		}
	})
	self := adjlist.Template("{@self}")
	// Names: NAME#Ada Okafor, NAME#Go, NAME#London, sorted by node.
	named := func(o *adjlist.NodeOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: byData,
			PartitionKey: adjlist.Template("NAME#{name}"), SortKey: self}}
	}
	// Self-keyed nodes (empty marker): PK = TypeTarget = PERSON#ada, so each
	// node's own item is in a GSI2 partition of its own.
	persons := adjlist.NewNode[Person](table, "PERSON", "", named)
	skills := adjlist.NewNode[Skill](table, "SKILL", "", named)
	places := adjlist.NewNode[Place](table, "PLACE", "", named)

	// An edge's Data is its target (SKILL#go, PLACE#london) and its Node
	// the person it starts at: GSI1 partition SKILL#go lists everyone
	// with the skill.
	fromPerson := adjlist.Template("{@source}")
	toTarget := func(shards int) func(*adjlist.EdgeOptions) {
		return func(o *adjlist.EdgeOptions) {
			o.Indexes = []adjlist.IndexKeys{{Index: byData,
				PartitionKey: adjlist.Template("{@target}"), SortKey: fromPerson, Shards: shards}}
		}
	}
	has := adjlist.NewEdge[HasSkill](persons, "HAS", skills, toTarget(shards))
	livesIn := adjlist.NewEdge[LivesIn](persons, "LIVES_IN", places, toTarget(0))
	worksIn := adjlist.NewEdge[WorksIn](persons, "WORKS_IN", places, toTarget(0))
	// KNOWS edges are not in GSI1: who knows bob is GSI2's partition
	// KNOWS#PERSON#bob.
	knows := adjlist.NewEdge[Knows](persons, "KNOWS", persons)
	// A birth date is an item of its own, BORN#1990-12-10, whose Data is
	// that TypeTarget, sharded: BORN#1990-12-10#00 … #03.
	born := adjlist.NewCollection[Birth](persons, "BORN", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{{Index: byData,
			PartitionKey: self, SortKey: adjlist.Template("{@parent}"), Shards: shards}}
	})
	counts := adjlist.NewNode[adjlist.Count](table, "SKILL", "PEOPLE")
	people := adjlist.NewItemCounter(has, "PEOPLE", func(o *adjlist.CounterOptions) { o.Per = "to" })
	return model{table, persons, skills, places, born, knows, has, livesIn, worksIn, people, counts}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	handles := []adjlist.Describer{m.persons, m.skills, m.places, m.born, m.knows, m.has, m.livesIn, m.worksIn, m.people}
	return m.table, append(handles,
		adjlist.AccessPattern("everyone with a skill", m.has.ByIndex(byData, "<skill>")),
		adjlist.AccessPattern("everyone born on a date", m.born.ByIndex(byData, "<date>")),
		adjlist.AccessPattern("everyone who lives or works in a place (PageIndex)", m.livesIn.ByIndex(byData, "<place>")),
		adjlist.AccessPattern("a person by name", m.persons.ByIndex(byData, "<name>")),
	)
}

// person is one person of the graph and everything their partition holds.
type person struct {
	id, name, born string
	knows          []string          // ids, since 2020-01-01
	skills         map[string]string // skill id → level
	lives          string            // place id, since 2020-01-01
	works          string            // place id, as engineer
}

var (
	people = []person{
		{"ada", "Ada Okafor", "1990-12-10", []string{"bob", "cy"}, map[string]string{"go": "expert", "dynamodb": "expert"}, "london", "london"},
		{"bob", "Bob Martin", "1990-12-10", []string{"ada"}, map[string]string{"go": "intermediate", "rust": "beginner"}, "paris", "london"},
		{"cy", "Cy Tanaka", "1992-03-14", []string{"ada", "bob"}, map[string]string{"dynamodb": "intermediate"}, "london", "paris"},
		{"dee", "Dee Novak", "1990-12-10", []string{"bob"}, map[string]string{"go": "expert"}, "berlin", "berlin"},
		{"eve", "Eve Santos", "1992-03-14", []string{"bob", "dee"}, map[string]string{"go": "beginner", "rust": "expert"}, "paris", "paris"},
	}
	skillNames = map[string]string{"go": "Go", "dynamodb": "DynamoDB", "rust": "Rust"}
	placeNames = map[string]Place{"london": {"London", "GB"}, "paris": {"Paris", "FR"}, "berlin": {"Berlin", "DE"}}
)

// run writes the graph to table, answers each access pattern with what it
// cost, and prints the table and both indexes raw. It can run again on the
// same table: every write is a guarded Put, and an item already there is
// left as it is (ErrExists passed over), so the table is left as it was.
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	if err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}
	n, err := load(ctx, m)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d writes, one request each (a HAS edge and its skill's PEOPLE count in one transaction); adjlist derived every Data and Node\n", n)

	// Each access pattern, one after the other, with its cost.
	for _, p := range []struct {
		what string
		read func(ctx context.Context, w io.Writer, m model, arg string) error
		arg  string
	}{
		{"ada's neighbourhood (one Query on PK = \"PERSON#ada\")", neighbourhood, "ada"},
		{"everyone with skill go (GSI1, 4 shards merged)", withSkill, "go"},
		{"everyone born on 1990-12-10 (GSI1, 4 shards merged)", bornOn, "1990-12-10"},
		{"everyone in london (GSI1, lives and works in one read)", inPlace, "london"},
		{"who is called Cy Tanaka (GSI1)", named, "Cy Tanaka"},
		{"who knows bob (GSI2, the inverse direction)", whoKnows, "bob"},
		{"top skills by people (ByCount, the PEOPLE counts)", topSkills, "PEOPLE"},
	} {
		fmt.Fprintf(w, "\n%s:\n", p.what)
		var u adjlist.Usage
		if err := p.read(adjlist.WithUsage(ctx, &u), w, m, p.arg); err != nil {
			return err
		}
		fmt.Fprintf(w, "  [%s, %.1f RCU]\n", requests(u.Totals().Requests), u.Totals().ReadUnits)
	}

	// The table and both indexes as DynamoDB holds them: persons, then
	// skills, then places, each node's own item first.
	fmt.Fprintf(w, "\ntable %s:\n", tableName)
	order := exampleutil.SeedOrder{Types: []string{"PERSON", "SKILL", "PLACE"}}
	if err := exampleutil.PrintTable(ctx, db, tableName, w, []string{"PK", "TypeTarget", "Data", "Node"}, order.Compare); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nindex %s (Data, Node):\n", byData)
	if err := exampleutil.PrintIndex(ctx, db, tableName, byData, w, []string{"Data", "Node", "PK", "TypeTarget"}, nil); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nindex %s (TypeTarget, PK):\n", inverse)
	if err := exampleutil.PrintIndex(ctx, db, tableName, inverse, w, []string{"TypeTarget", "PK", "Data", "Node"}, nil); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}

// load writes every node and edge, one request each (a PutItem, or for a
// HAS edge a TransactWriteItems that also adds 1 to the skill's PEOPLE
// count), and returns how many it wrote; adjlist derives every item's Data
// and Node.
func load(ctx context.Context, m model) (int, error) {
	n := 0
	// put counts a write. Every Put is a guarded create: an item already
	// there is ErrExists and is left as it is.
	put := func(err error) error {
		n++
		if errors.Is(err, adjlist.ErrExists) {
			return nil
		}
		return err
	}
	var err error
	for id, name := range skillNames {
		err = errors.Join(err, put(m.skills.Put(ctx, id, Skill{Name: name})))
	}
	for id, p := range placeNames {
		err = errors.Join(err, put(m.places.Put(ctx, id, p)))
	}
	for _, p := range people {
		err = errors.Join(err,
			put(m.persons.Put(ctx, p.id, Person{Name: p.name})),
			put(m.born.Put(ctx, p.id, p.born, Birth{})),
			put(m.livesIn.Put(ctx, p.id, p.lives, LivesIn{Since: "2020-01-01"})),
			put(m.worksIn.Put(ctx, p.id, p.works, WorksIn{Role: "engineer"})))
		for _, k := range p.knows {
			err = errors.Join(err, put(m.knows.Put(ctx, p.id, k, Knows{Since: "2020-01-01"})))
		}
		for s, level := range p.skills {
			err = errors.Join(err, put(m.has.Put(ctx, p.id, s, HasSkill{Level: level})))
		}
		if err != nil {
			return n, err
		}
	}
	return n, err
}

// neighbourhood prints a person's whole partition, read in one Query per
// page: their own item, birth date, whom they know, their skills and
// their places, each item decoded into its type's slice.
func neighbourhood(ctx context.Context, w io.Writer, m model, id string) error {
	var (
		births []adjlist.Child[Birth]
		knows  []adjlist.EdgeItem[Knows]
		skills []adjlist.EdgeItem[HasSkill]
		lives  []adjlist.EdgeItem[LivesIn]
		works  []adjlist.EdgeItem[WorksIn]
	)
	p, err := adjlist.LoadPartition(ctx, m.persons, id,
		m.born.Into(&births), m.knows.Into(&knows), m.has.Into(&skills), m.livesIn.Into(&lives), m.worksIn.Into(&works))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  name      %s\n", p.Node.Name)
	for _, b := range births {
		fmt.Fprintf(w, "  born      %s\n", b.ID)
	}
	for _, k := range knows {
		fmt.Fprintf(w, "  knows     %s since %s\n", k.To, k.Data.Since)
	}
	for _, s := range skills {
		fmt.Fprintf(w, "  skill     %s (%s)\n", s.To, s.Data.Level)
	}
	for _, l := range lives {
		fmt.Fprintf(w, "  lives in  %s since %s\n", l.To, l.Data.Since)
	}
	for _, x := range works {
		fmt.Fprintf(w, "  works in  %s as %s\n", x.To, x.Data.Role)
	}
	return nil
}

// withSkill prints everyone with a skill: GSI1 partition SKILL#<skill>,
// sharded, its shards queried in parallel and merged in person order.
func withSkill(ctx context.Context, w io.Writer, m model, skill string) error {
	page, err := m.has.ByIndex(byData, skill).Page(ctx, "")
	if err != nil {
		return err
	}
	for _, e := range page.Items {
		fmt.Fprintf(w, "  %-4s %s\n", e.From, e.Data.Level)
	}
	return nil
}

// bornOn prints everyone born on a date: GSI1 partition BORN#<date>,
// sharded, merged.
func bornOn(ctx context.Context, w io.Writer, m model, date string) error {
	page, err := m.born.ByIndex(byData, date).Page(ctx, "")
	if err != nil {
		return err
	}
	ids := make([]string, len(page.Items))
	for i, b := range page.Items {
		ids[i] = b.Parent
	}
	fmt.Fprintf(w, "  %s\n", strings.Join(ids, ", "))
	return nil
}

// inPlace prints everyone who lives or works in a place. Both edge types
// have the Data PLACE#<place> and sort by person, so GSI1 partition
// PLACE#london holds both; PageIndex reads it once and deals each item to
// its type.
func inPlace(ctx context.Context, w io.Writer, m model, place string) error {
	var lives []adjlist.EdgeItem[LivesIn]
	var works []adjlist.EdgeItem[WorksIn]
	if _, err := adjlist.PageIndex(ctx, m.livesIn.ByIndex(byData, place), "", m.livesIn.Into(&lives), m.worksIn.Into(&works)); err != nil {
		return err
	}
	for _, l := range lives {
		fmt.Fprintf(w, "  %-4s lives there since %s\n", l.From, l.Data.Since)
	}
	for _, x := range works {
		fmt.Fprintf(w, "  %-4s works there as %s\n", x.From, x.Data.Role)
	}
	return nil
}

// named prints the persons with a name: GSI1 partition NAME#<name>, which
// skills and places share by name.
func named(ctx context.Context, w io.Writer, m model, name string) error {
	page, err := m.persons.ByIndex(byData, name).Page(ctx, "")
	if err != nil {
		return err
	}
	for _, p := range page.Items {
		fmt.Fprintf(w, "  %s\n", p.ID)
	}
	return nil
}

// whoKnows prints who points at a person with a KNOWS edge: GSI2
// partition KNOWS#PERSON#<id>, the edges' TypeTarget.
func whoKnows(ctx context.Context, w io.Writer, m model, id string) error {
	page, err := m.knows.To(id).Page(ctx, "")
	if err != nil {
		return err
	}
	for _, e := range page.Items {
		fmt.Fprintf(w, "  %-4s since %s\n", e.From, e.Data.Since)
	}
	return nil
}

// requests says "1 request", "4 requests".
func requests(n int) string {
	if n == 1 {
		return "1 request"
	}
	return fmt.Sprintf("%d requests", n)
}

// topSkills lists the skills by how many people have them, from the
// aggregate items the PEOPLE counter keeps: one Query on ByCount,
// counter = "PEOPLE", highest count first (ties by skill id).
func topSkills(ctx context.Context, w io.Writer, m model, counter string) error {
	top, err := m.counts.ByIndex(byCount, counter).Desc().Collect(ctx)
	if err != nil {
		return err
	}
	slices.SortStableFunc(top, func(a, b adjlist.NodeItem[adjlist.Count]) int {
		return cmp.Or(cmp.Compare(b.Data.Count, a.Data.Count), cmp.Compare(a.ID, b.ID))
	})
	for _, s := range top {
		fmt.Fprintf(w, "  %-9s %d\n", s.ID, s.Data.Count)
	}
	return nil
}
