package adjlist

// presets is one handle of every preset kind on one table, declared
// alike by the tests that walk them all.
type presets struct {
	table                                            *Table
	students, bills, courses, workspaces             *Node[struct{}]
	enrolled, unlabelled, tagged, toChild, fromChild *Edge[struct{}]
	projects, sharded                                *Collection[struct{}, struct{}]
}

// newPresets declares them on a table named name (with no client): a
// caller may add handles before it checks the table.
func newPresets(name string) presets {
	var h presets
	h.table = NewTable(nil, name)
	h.students = NewNode[struct{}](h.table, "STU", "PROFILE")
	h.bills = NewNode[struct{}](h.table, "BILL", "")
	h.courses = NewNode[struct{}](h.table, "CRS", "METADATA")
	h.enrolled = NewEdge[struct{}](h.students, "ENROLL", h.courses)
	h.unlabelled = NewEdge[struct{}](h.students, "", h.courses)
	h.workspaces = NewNode[struct{}](h.table, "WS", "META")
	h.projects = NewCollection[struct{}](h.workspaces, "PROJ")
	h.sharded = NewCollection[struct{}](h.workspaces, "TCK", func(o *CollectionOptions) { o.Shards = 8 })
	h.tagged = NewEdge[struct{}](h.students, "TAGGED", h.projects)
	h.toChild = NewEdge[struct{}](h.students, "", h.projects)
	h.fromChild = NewEdge[struct{}](h.projects, "HAS", h.students)
	return h
}
