package bench

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/guregu/dynamo/v2"

	"github.com/adjlist/adjlist"
)

// Patterns are the enrolment design's access patterns, done the same way by each
// implementation: same requests (up to expression placeholder names), same
// results.
type Patterns interface {
	// PutEdge creates an enrolment with a PutItem guarded by
	// attribute_not_exists(PK).
	PutEdge(ctx context.Context, from, to string, data Enrollment) error
	// GetEdge reads one enrolment with GetItem.
	GetEdge(ctx context.Context, from, to string) (Edge, error)
	// From lists a student's enrolments: Query PK = STU#from AND
	// begins_with(SK, ENROLL#CRS#), every page.
	From(ctx context.Context, student string) ([]Edge, error)
	// To lists a course's enrolments on GSI1: GSI1PK = CRS#to AND
	// begins_with(GSI1SK, STU#), filter begins_with(SK, ENROLL#CRS#).
	To(ctx context.Context, course string) ([]Edge, error)
	// LoadStudent reads a student's profile and enrolments: Query
	// PK = STU#id, every page.
	LoadStudent(ctx context.Context, id string) (Student, []Edge, error)
	// LoadWorkspace reads a workspace and its projects: Query PK = WS#id,
	// every page.
	LoadWorkspace(ctx context.Context, id string) (Workspace, []Child, error)
	// ProjectsBetween lists a workspace's projects with ids from lo to hi:
	// Query PK = WS#id AND SK BETWEEN PROJ#lo AND PROJ#hi, every page.
	ProjectsBetween(ctx context.Context, id, lo, hi string) ([]Child, error)
	// ToWithGrade lists a course's enrolments of one grade on GSI1: To's
	// request with filter begins_with(SK, ENROLL#CRS#) AND grade = :grade.
	ToWithGrade(ctx context.Context, course, grade string) ([]Edge, error)

	// The template-keyed set (entity.go).
	entityPatterns
}

// errNotFound is the hand-written implementations' "no such item".
var errNotFound = errors.New("bench: not found")

// AdjList does the access patterns with the library.
type AdjList struct {
	Table      *adjlist.Table
	Students   *adjlist.Node[Student]
	Courses    *adjlist.Node[Course]
	Enrolled   *adjlist.Edge[Enrollment]
	Workspaces *adjlist.Node[Workspace]
	Projects   *adjlist.Collection[Project, Workspace]
	// Entities is the template-keyed set (entity.go).
	Entities adjEntities
}

// NewAdjList declares the model on table name (default key names: PK, SK,
// GSI1 on GSI1PK/GSI1SK); optFns adjust the table's other options
// (BenchmarkTracing's TracerProvider).
func NewAdjList(client adjlist.Client, name string, optFns ...func(*adjlist.Options)) *AdjList {
	t := adjlist.NewTable(client, name, optFns...)
	a := &AdjList{Table: t}
	a.Students = adjlist.NewNode[Student](t, "STU", profileSK)
	a.Courses = adjlist.NewNode[Course](t, "CRS", "METADATA")
	a.Enrolled = adjlist.NewEdge[Enrollment](a.Students, "ENROLL", a.Courses)
	a.Workspaces = adjlist.NewNode[Workspace](t, "WS", wsMarker)
	a.Projects = adjlist.NewCollection[Project](a.Workspaces, "PROJ")
	a.Entities = newAdjEntities(client, name)
	return a
}

func (a *AdjList) PutEdge(ctx context.Context, from, to string, data Enrollment) error {
	return a.Enrolled.Put(ctx, from, to, data)
}

func (a *AdjList) GetEdge(ctx context.Context, from, to string) (Edge, error) {
	data, err := a.Enrolled.Get(ctx, from, to)
	if err != nil {
		return Edge{}, err
	}
	return Edge{From: from, To: to, Data: data}, nil
}

func (a *AdjList) From(ctx context.Context, student string) ([]Edge, error) {
	return a.Enrolled.From(student).Collect(ctx)
}

func (a *AdjList) To(ctx context.Context, course string) ([]Edge, error) {
	return a.Enrolled.To(course).Collect(ctx)
}

func (a *AdjList) LoadStudent(ctx context.Context, id string) (Student, []Edge, error) {
	n, err := adjlist.LoadNode(ctx, a.Students, a.Enrolled, id)
	return n.Node, n.Edges, err
}

func (a *AdjList) LoadWorkspace(ctx context.Context, id string) (Workspace, []Child, error) {
	f, err := a.Projects.Load(ctx, id)
	return f.Parent, f.Children, err
}

func (a *AdjList) ProjectsBetween(ctx context.Context, id, lo, hi string) ([]Child, error) {
	return a.Projects.List(id).Between(lo, hi).Collect(ctx)
}

func (a *AdjList) ToWithGrade(ctx context.Context, course, grade string) ([]Edge, error) {
	return a.Enrolled.To(course).Filter(expression.Name("grade").Equal(expression.Value(grade))).Collect(ctx)
}

// PutMany is the library's bulk path.
func (a *AdjList) PutMany(ctx context.Context, edges []Edge, workers int) error {
	res, err := a.Enrolled.PutMany(ctx, edges, func(o *adjlist.BulkOptions) { o.Workers = workers })
	if err == nil && res.Written != len(edges) {
		err = fmt.Errorf("adjlist: wrote %d of %d", res.Written, len(edges))
	}
	return err
}

// SDK does the access patterns with hand-written aws-sdk-go-v2 code: literal
// attribute maps and expressions, attributevalue for the data. It is the
// floor: what the requests cost without any library in between. It neither
// validates nor escapes ids.
type SDK struct {
	Client *dynamodb.Client
	Name   string
}

func str(item map[string]types.AttributeValue, name string) string {
	if s, ok := item[name].(*types.AttributeValueMemberS); ok {
		return s.Value
	}
	return ""
}

func (s *SDK) edgeItem(from, to string, data Enrollment) map[string]types.AttributeValue {
	pk, crs := stuPrefix+from, crsPrefix+to
	return map[string]types.AttributeValue{
		"PK":         &types.AttributeValueMemberS{Value: pk},
		"SK":         &types.AttributeValueMemberS{Value: "ENROLL#" + crs},
		"GSI1PK":     &types.AttributeValueMemberS{Value: crs},
		"GSI1SK":     &types.AttributeValueMemberS{Value: pk},
		"enrolledOn": &types.AttributeValueMemberS{Value: data.EnrolledOn},
		"grade":      &types.AttributeValueMemberS{Value: data.Grade},
	}
}

func (s *SDK) PutEdge(ctx context.Context, from, to string, data Enrollment) error {
	_, err := s.Client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           aws.String(s.Name),
		Item:                                s.edgeItem(from, to, data),
		ConditionExpression:                 aws.String("attribute_not_exists(PK)"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	return err
}

func (s *SDK) GetEdge(ctx context.Context, from, to string) (Edge, error) {
	out, err := s.Client.GetItem(ctx, &dynamodb.GetItemInput{
		TableName: aws.String(s.Name),
		Key: map[string]types.AttributeValue{
			"PK": &types.AttributeValueMemberS{Value: stuPrefix + from},
			"SK": &types.AttributeValueMemberS{Value: enrollPrefix + to},
		},
	})
	if err != nil {
		return Edge{}, err
	}
	if out.Item == nil {
		return Edge{}, errNotFound
	}
	e := Edge{From: from, To: to}
	return e, attributevalue.UnmarshalMap(out.Item, &e.Data)
}

// query runs in page by page, telling page how many items each page holds
// (to grow the result once) and handing each item to each.
func (s *SDK) query(ctx context.Context, in *dynamodb.QueryInput, page func(n int), each func(map[string]types.AttributeValue) error) error {
	for {
		out, err := s.Client.Query(ctx, in)
		if err != nil {
			return err
		}
		page(len(out.Items))
		for _, item := range out.Items {
			if err := each(item); err != nil {
				return err
			}
		}
		if len(out.LastEvaluatedKey) == 0 {
			return nil
		}
		in.ExclusiveStartKey = out.LastEvaluatedKey
	}
}

func (s *SDK) From(ctx context.Context, student string) ([]Edge, error) {
	var edges []Edge
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.Name),
		KeyConditionExpression: aws.String("PK = :pk AND begins_with(SK, :sk)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: stuPrefix + student},
			":sk": &types.AttributeValueMemberS{Value: enrollPrefix},
		},
	}, func(n int) { edges = slices.Grow(edges, n) }, func(item map[string]types.AttributeValue) error {
		e := Edge{From: student, To: strings.TrimPrefix(str(item, "SK"), enrollPrefix)}
		if err := attributevalue.UnmarshalMap(item, &e.Data); err != nil {
			return err
		}
		edges = append(edges, e)
		return nil
	})
	return edges, err
}

func (s *SDK) To(ctx context.Context, course string) ([]Edge, error) {
	return s.reverse(ctx, course, "", nil)
}

// reverse lists the enrolments into course on GSI1, with filter ANDed to
// the label filter if it is not "" (its values in vals).
func (s *SDK) reverse(ctx context.Context, course, filter string, vals map[string]types.AttributeValue) ([]Edge, error) {
	in := &dynamodb.QueryInput{
		TableName:              aws.String(s.Name),
		IndexName:              aws.String("GSI1"),
		KeyConditionExpression: aws.String("GSI1PK = :pk AND begins_with(GSI1SK, :sk)"),
		FilterExpression:       aws.String("begins_with(SK, :label)"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk":    &types.AttributeValueMemberS{Value: crsPrefix + course},
			":sk":    &types.AttributeValueMemberS{Value: stuPrefix},
			":label": &types.AttributeValueMemberS{Value: enrollPrefix},
		},
	}
	if filter != "" {
		in.FilterExpression = aws.String("begins_with(SK, :label) AND " + filter)
		maps.Copy(in.ExpressionAttributeValues, vals)
	}
	var edges []Edge
	err := s.query(ctx, in, func(n int) { edges = slices.Grow(edges, n) }, func(item map[string]types.AttributeValue) error {
		e := Edge{From: strings.TrimPrefix(str(item, "PK"), stuPrefix), To: course}
		if err := attributevalue.UnmarshalMap(item, &e.Data); err != nil {
			return err
		}
		edges = append(edges, e)
		return nil
	})
	return edges, err
}

func (s *SDK) LoadStudent(ctx context.Context, id string) (Student, []Edge, error) {
	var (
		st    Student
		found bool
		edges []Edge
	)
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.Name),
		KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: stuPrefix + id},
		},
	}, func(n int) { edges = slices.Grow(edges, n) }, func(item map[string]types.AttributeValue) error {
		sk := str(item, "SK")
		switch {
		case sk == profileSK:
			found = true
			return attributevalue.UnmarshalMap(item, &st)
		case strings.HasPrefix(sk, enrollPrefix):
			e := Edge{From: id, To: sk[len(enrollPrefix):]}
			if err := attributevalue.UnmarshalMap(item, &e.Data); err != nil {
				return err
			}
			edges = append(edges, e)
		}
		return nil
	})
	if err == nil && !found {
		err = errNotFound
	}
	return st, edges, err
}

func (s *SDK) LoadWorkspace(ctx context.Context, id string) (Workspace, []Child, error) {
	var (
		ws       Workspace
		found    bool
		children []Child
	)
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.Name),
		KeyConditionExpression: aws.String("PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: wsPrefix + id},
		},
	}, func(n int) { children = slices.Grow(children, n) }, func(item map[string]types.AttributeValue) error {
		sk := str(item, "SK")
		switch {
		case sk == wsMarker:
			found = true
			return attributevalue.UnmarshalMap(item, &ws)
		case strings.HasPrefix(sk, projPrefix):
			c := Child{Parent: id, ID: sk[len(projPrefix):]}
			if err := attributevalue.UnmarshalMap(item, &c.Data); err != nil {
				return err
			}
			children = append(children, c)
		}
		return nil
	})
	if err == nil && !found {
		err = errNotFound
	}
	return ws, children, err
}

func (s *SDK) ProjectsBetween(ctx context.Context, id, lo, hi string) ([]Child, error) {
	var children []Child
	err := s.query(ctx, &dynamodb.QueryInput{
		TableName:              aws.String(s.Name),
		KeyConditionExpression: aws.String("PK = :pk AND SK BETWEEN :lo AND :hi"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: wsPrefix + id},
			":lo": &types.AttributeValueMemberS{Value: projPrefix + lo},
			":hi": &types.AttributeValueMemberS{Value: projPrefix + hi},
		},
	}, func(n int) { children = slices.Grow(children, n) }, func(item map[string]types.AttributeValue) error {
		c := Child{Parent: id, ID: strings.TrimPrefix(str(item, "SK"), projPrefix)}
		if err := attributevalue.UnmarshalMap(item, &c.Data); err != nil {
			return err
		}
		children = append(children, c)
		return nil
	})
	return children, err
}

func (s *SDK) ToWithGrade(ctx context.Context, course, grade string) ([]Edge, error) {
	return s.reverse(ctx, course, "grade = :grade", map[string]types.AttributeValue{
		":grade": &types.AttributeValueMemberS{Value: grade},
	})
}

// PutMany is hand-written bulk loading: BatchWriteItem, 25 items per
// request, workers requests in flight, unprocessed items resent at once
// (DynamoDB Local never leaves any).
func (s *SDK) PutMany(ctx context.Context, edges []Edge, workers int) error {
	sem := make(chan struct{}, workers)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for start := 0; start < len(edges); start += 25 {
		chunk := edges[start:min(start+25, len(edges))]
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			reqs := make([]types.WriteRequest, len(chunk))
			for i, e := range chunk {
				reqs[i] = types.WriteRequest{PutRequest: &types.PutRequest{Item: s.edgeItem(e.From, e.To, e.Data)}}
			}
			for len(reqs) > 0 {
				out, err := s.Client.BatchWriteItem(ctx, &dynamodb.BatchWriteItemInput{
					RequestItems: map[string][]types.WriteRequest{s.Name: reqs},
				})
				if err != nil {
					mu.Lock()
					first = cmpOr(first, err)
					mu.Unlock()
					return
				}
				reqs = out.UnprocessedItems[s.Name]
			}
		}()
	}
	wg.Wait()
	return first
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// Guregu does the access patterns with github.com/guregu/dynamo/v2, the
// way its README models items: one struct per item shape, keys included.
// Two differences from the others are the library's, not ours: its Put
// cannot ask for ReturnValuesOnConditionCheckFailure, and its Query sends
// the legacy KeyConditions parameter instead of a KeyConditionExpression.
type Guregu struct {
	DB    *dynamo.DB
	Table dynamo.Table
}

// NewGuregu wraps client; it makes no request (dynamo.DB.Table only names
// the table).
func NewGuregu(client *dynamodb.Client, name string) *Guregu {
	db := dynamo.NewFromIface(client)
	return &Guregu{DB: db, Table: db.Table(name)}
}

// gEdge is an enrolment item as guregu reads and writes it.
type gEdge struct {
	PK         string `dynamo:"PK"`
	SK         string `dynamo:"SK"`
	GSI1PK     string `dynamo:"GSI1PK"`
	GSI1SK     string `dynamo:"GSI1SK"`
	EnrolledOn string `dynamo:"enrolledOn"`
	Grade      string `dynamo:"grade"`
}

func (r *gEdge) edge() Edge {
	return Edge{
		From: strings.TrimPrefix(r.PK, stuPrefix),
		To:   strings.TrimPrefix(r.SK, enrollPrefix),
		Data: Enrollment{EnrolledOn: r.EnrolledOn, Grade: r.Grade},
	}
}

func gEdges(recs []gEdge) []Edge {
	edges := make([]Edge, len(recs))
	for i := range recs {
		edges[i] = recs[i].edge()
	}
	return edges
}

// gStudentPartition is any item of a student's partition: the profile or
// an enrolment (the single-table way to read mixed items with guregu).
type gStudentPartition struct {
	SK string `dynamo:"SK"`
	Student
	Enrollment
}

// gWorkspacePartition is any item of a workspace's partition.
type gWorkspacePartition struct {
	SK string `dynamo:"SK"`
	Workspace
	Project
}

func (g *Guregu) PutEdge(ctx context.Context, from, to string, data Enrollment) error {
	pk, crs := stuPrefix+from, crsPrefix+to
	return g.Table.Put(gEdge{
		PK: pk, SK: "ENROLL#" + crs, GSI1PK: crs, GSI1SK: pk,
		EnrolledOn: data.EnrolledOn, Grade: data.Grade,
	}).If("attribute_not_exists(PK)").Run(ctx)
}

func (g *Guregu) GetEdge(ctx context.Context, from, to string) (Edge, error) {
	var r gEdge
	err := g.Table.Get("PK", stuPrefix+from).Range("SK", dynamo.Equal, enrollPrefix+to).One(ctx, &r)
	if err != nil {
		return Edge{}, err
	}
	return r.edge(), nil
}

func (g *Guregu) From(ctx context.Context, student string) ([]Edge, error) {
	var recs []gEdge
	err := g.Table.Get("PK", stuPrefix+student).Range("SK", dynamo.BeginsWith, enrollPrefix).All(ctx, &recs)
	return gEdges(recs), err
}

func (g *Guregu) To(ctx context.Context, course string) ([]Edge, error) {
	var recs []gEdge
	err := g.Table.Get("GSI1PK", crsPrefix+course).Index("GSI1").
		Range("GSI1SK", dynamo.BeginsWith, stuPrefix).
		Filter("begins_with(SK, ?)", enrollPrefix).All(ctx, &recs)
	return gEdges(recs), err
}

func (g *Guregu) LoadStudent(ctx context.Context, id string) (Student, []Edge, error) {
	var recs []gStudentPartition
	if err := g.Table.Get("PK", stuPrefix+id).All(ctx, &recs); err != nil {
		return Student{}, nil, err
	}
	var (
		st    Student
		found bool
		edges []Edge
	)
	for i := range recs {
		switch r := &recs[i]; {
		case r.SK == profileSK:
			st, found = r.Student, true
		case strings.HasPrefix(r.SK, enrollPrefix):
			edges = append(edges, Edge{From: id, To: r.SK[len(enrollPrefix):], Data: r.Enrollment})
		}
	}
	if !found {
		return st, edges, errNotFound
	}
	return st, edges, nil
}

func (g *Guregu) LoadWorkspace(ctx context.Context, id string) (Workspace, []Child, error) {
	var recs []gWorkspacePartition
	if err := g.Table.Get("PK", wsPrefix+id).All(ctx, &recs); err != nil {
		return Workspace{}, nil, err
	}
	var (
		ws       Workspace
		found    bool
		children []Child
	)
	for i := range recs {
		switch r := &recs[i]; {
		case r.SK == wsMarker:
			ws, found = r.Workspace, true
		case strings.HasPrefix(r.SK, projPrefix):
			children = append(children, Child{Parent: id, ID: r.SK[len(projPrefix):], Data: r.Project})
		}
	}
	if !found {
		return ws, children, errNotFound
	}
	return ws, children, nil
}

func (g *Guregu) ProjectsBetween(ctx context.Context, id, lo, hi string) ([]Child, error) {
	var recs []gWorkspacePartition
	err := g.Table.Get("PK", wsPrefix+id).Range("SK", dynamo.Between, projPrefix+lo, projPrefix+hi).All(ctx, &recs)
	children := make([]Child, len(recs))
	for i := range recs {
		children[i] = Child{Parent: id, ID: strings.TrimPrefix(recs[i].SK, projPrefix), Data: recs[i].Project}
	}
	return children, err
}

func (g *Guregu) ToWithGrade(ctx context.Context, course, grade string) ([]Edge, error) {
	var recs []gEdge
	err := g.Table.Get("GSI1PK", crsPrefix+course).Index("GSI1").
		Range("GSI1SK", dynamo.BeginsWith, stuPrefix).
		Filter("begins_with(SK, ?)", enrollPrefix).
		Filter("'grade' = ?", grade).All(ctx, &recs)
	return gEdges(recs), err
}
