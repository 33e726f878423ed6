package adjlist

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkVerifyItem is Verify's own work per item, without DynamoDB:
// the items of a school (students, courses, enrolments counted, projects
// in a collection) handed to the verifier as a Scan page hands them.
func BenchmarkVerifyItem(b *testing.B) {
	type (
		student struct {
			Name string `dynamodbav:"name"`
			Year int    `dynamodbav:"year"`
		}
		course struct {
			Title string `dynamodbav:"title"`
		}
		enrolment struct {
			Grade string `dynamodbav:"grade"`
		}
	)
	t := NewTable(nil, "bench")
	students := NewNode[student](t, "STU", "PROFILE")
	courses := NewNode[course](t, "CRS", "METADATA")
	enrolled := NewEdge[enrolment](students, "ENROLL", courses)
	NewCounter(enrolled, "ENROLLED")
	notes := NewCollection[course](students, "NOTE")
	require.NoError(b, t.Check())
	var items []Item
	add := func(item Item, _ any, err error) {
		require.NoError(b, err)
		items = append(items, item)
	}
	for i := range 50 {
		item, k, err := courses.item(fmt.Sprintf("c%02d", i), course{Title: "T"}, true, nil)
		add(item, k, err)
	}
	for i := range 100 {
		id := fmt.Sprintf("s%03d", i)
		item, k, err := students.item(id, student{Name: id, Year: 2}, true, nil)
		add(item, k, err)
		for j := range 16 {
			item, k, err := enrolled.item(id, fmt.Sprintf("c%02d", (i+j)%50), enrolment{Grade: "A"}, true, nil)
			add(item, k, err)
		}
		for j := range 3 {
			item, k, err := notes.item(id, fmt.Sprint(j), course{Title: "n"}, true, nil)
			add(item, k, err)
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v := newVerifier(t, 1)
		for _, item := range items {
			if _, err := v.each(ctx, 0, item); err != nil {
				b.Fatal(err)
			}
		}
		require.Empty(b, v.findings)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/item")
}
