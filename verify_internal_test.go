package adjlist

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
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
	NewItemCounter(enrolled, "ENROLLED", func(o *CounterOptions) { o.Per = "to" })
	notes := NewCollection[course](students, "NOTE")
	require.NoError(b, t.Check())
	var items []Item
	add := func(item Item, _ any, err error) {
		require.NoError(b, err)
		items = append(items, item)
	}
	for i := range 50 {
		item, k, err := built(courses.handle(), course{Title: "T"})(courses.keyed(fmt.Sprintf("c%02d", i)))
		add(item, k, err)
	}
	for i := range 100 {
		id := fmt.Sprintf("s%03d", i)
		item, k, err := built(students.handle(), student{Name: id, Year: 2})(students.keyed(id))
		add(item, k, err)
		for j := range 16 {
			item, k, err := built(enrolled.handle(), enrolment{Grade: "A"})(enrolled.keyed(id, fmt.Sprintf("c%02d", (i+j)%50)))
			add(item, k, err)
		}
		for j := range 3 {
			item, k, err := built(notes.handle(), course{Title: "n"})(notes.keyed(id, fmt.Sprint(j)))
			add(item, k, err)
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		v := newVerifier(ctx, t, 1)
		for _, item := range items {
			if _, err := v.each(ctx, 0, item); err != nil {
				b.Fatal(err)
			}
		}
		require.Empty(b, v.findings)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(items)), "ns/item")
}

// Finding.String gives the kind, the keys and the type, then what
// differs, as the README's example shows.
func TestFindingString(t *testing.T) {
	for _, c := range []struct {
		f    Finding
		want string
	}{
		{Finding{Kind: FindingIndexKeyStale, Type: "edge ENROLL (STU → CRS)", Key: Key{"STU#a91", "ENROLL#CRS#math204"}, Attribute: "GSI1PK", Have: "CRS#cs101", Want: "CRS#math204"},
			`index key stale: "STU#a91" "ENROLL#CRS#math204" (edge ENROLL (STU → CRS)): GSI1PK = "CRS#cs101", want "CRS#math204"`},
		{Finding{Kind: FindingUnknownItem, Key: Key{"ZZZ#1", "junk"}}, `unknown item: "ZZZ#1" "junk"`},
		{Finding{Kind: FindingDanglingEdge, Type: "edge ENROLL (STU → CRS)", Key: Key{"STU#a91", "ENROLL#CRS#x"}, Missing: Key{"CRS#x", "METADATA"}},
			`dangling edge: "STU#a91" "ENROLL#CRS#x" (edge ENROLL (STU → CRS)): no item "CRS#x" "METADATA"`},
		{Finding{Kind: FindingBadVersion, Type: "node STU", Key: Key{"STU#a91", "PROFILE"}, Attribute: "version", Have: `S "x"`},
			`bad version: "STU#a91" "PROFILE" (node STU): version is S "x"`},
		{Finding{Kind: FindingCounterMismatch, Type: "counter ENROLLED", Key: Key{"CRS#c05", "ENROLLED"}, Attribute: "count", Have: "999", Want: "50"},
			`counter mismatch: "CRS#c05" "ENROLLED" (counter ENROLLED): count = "999", want "50"`},
		{Finding{Kind: FindingUndecodable, Type: "node STU", Key: Key{"STU#a91", "PROFILE"}, Err: errors.New("bad year")},
			`undecodable: "STU#a91" "PROFILE" (node STU): bad year`},
	} {
		assert.Equal(t, c.want, c.f.String())
	}
}
