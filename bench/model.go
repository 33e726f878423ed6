// Package bench measures adjlist against hand-written aws-sdk-go-v2 code
// (the floor) and guregu/dynamo/v2, on the students↔courses enrolment design and
// the workspace→projects item collection. See BENCHMARKS.md at
// the repository root for the method and the figures; `make bench` runs it
// all.
//
// It is a module of its own so that the library's go.mod stays lean.
package bench

import "github.com/adjlist/adjlist"

// Table is the name every benchmark table is created under (DynamoDB Local)
// or addressed by (canned responses).
const Table = "bench"

// Student is a node item's data: PK=STU#<id>, SK=PROFILE.
type Student struct {
	Name  string `dynamodbav:"name" dynamo:"name"`
	Year  int    `dynamodbav:"year" dynamo:"year"`
	Major string `dynamodbav:"major" dynamo:"major"`
}

// Course is a node item's data: PK=CRS#<id>, SK=METADATA.
type Course struct {
	Title   string `dynamodbav:"title" dynamo:"title"`
	Credits int    `dynamodbav:"credits" dynamo:"credits"`
}

// Enrollment is an edge's data: PK=STU#<student>, SK=ENROLL#CRS#<course>,
// GSI1PK=CRS#<course>, GSI1SK=STU#<student>.
type Enrollment struct {
	EnrolledOn string `dynamodbav:"enrolledOn" dynamo:"enrolledOn"`
	Grade      string `dynamodbav:"grade" dynamo:"grade"`
}

// Workspace is a collection parent's data: PK=WS#<id>, SK=META.
type Workspace struct {
	DisplayName string `dynamodbav:"displayName" dynamo:"displayName"`
	Region      string `dynamodbav:"region" dynamo:"region"`
	SeatLimit   int    `dynamodbav:"seatLimit" dynamo:"seatLimit"`
}

// Project is a collection child's data: PK=WS#<id>, SK=PROJ#<child id>.
type Project struct {
	Title     string `dynamodbav:"title" dynamo:"title"`
	Status    string `dynamodbav:"status" dynamo:"status"`
	CreatedBy string `dynamodbav:"createdBy" dynamo:"createdBy"`
}

// Edge is what every implementation returns for an edge read: the
// library's own EdgeItem, so results can be compared field by field.
type Edge = adjlist.EdgeItem[Enrollment]

// Child is what every implementation returns for a collection child.
type Child = adjlist.Child[Project]

// Key prefixes of the model, spelled out for the hand-written code.
const (
	stuPrefix    = "STU#"
	crsPrefix    = "CRS#"
	enrollPrefix = "ENROLL#CRS#"
	wsPrefix     = "WS#"
	projPrefix   = "PROJ#"
	profileSK    = "PROFILE"
	wsMarker     = "META"
)
