package op

import "testing"

// TestEveryRowIsConsistent walks the table: every kind has a row, named
// once, routed to itself (or, for an upsert, to the update it is without
// If-Match), and its flags agree with one another.
func TestEveryRowIsConsistent(t *testing.T) {
	names := map[string]Kind{}
	for _, k := range Kinds() {
		s := k.Spec()
		if s.Name == "" || names[s.Name] != 0 {
			t.Errorf("kind %d: name %q missing or taken by %v", k, s.Name, names[s.Name])
		}
		names[s.Name] = k
		if s.Answer == NoAnswer {
			t.Errorf("%v has no answer shape", k)
		}
		routed := Route(s.Resource, s.Method)
		switch {
		case routed == k:
			if s.Condition == Upserting {
				t.Errorf("%v is an upsert, yet routed before its update", k)
			}
		case routed.Spec().Upsert == k:
			if s.Condition != Upserting || routed.Spec().Condition != Conditional {
				t.Errorf("%v is %v's upsert, but their conditions are %d and %d", k, routed, s.Condition, routed.Spec().Condition)
			}
		default:
			t.Errorf("%v: %v %d routes to %v", k, s.Method, s.Resource, routed)
		}
		if s.Writes && !s.Changes || s.Addressed != (s.Resource == OneEntity) || s.InBatch && s.Resource != Entities && s.Resource != OneEntity {
			t.Errorf("%v: writes %v changes %v addressed %v in batch %v on resource %d", k, s.Writes, s.Changes, s.Addressed, s.InBatch, s.Resource)
		}
	}
	if Kind(len(specs)).Spec() != (Spec{}) || Kind(len(specs)).String() != "unknown" || Route(NoResource, NoMethod) != 0 {
		t.Error("a kind without a row is not the zero row")
	}
}

// TestAFakeRowIsRouted: a row appended to the table is routed by its
// resource and verb, and does not take the route of a row before it.
func TestAFakeRowIsRouted(t *testing.T) {
	fake := Kind(len(specs))
	rows := append(specs[:len(specs):len(specs)], Spec{Name: "fake", Resource: OneTable, Method: MethodPut})
	routed := routeTable(rows)
	if routed[OneTable][MethodPut] != fake {
		t.Errorf("the fake row's route names %v", routed[OneTable][MethodPut])
	}
	shadow := append(specs[:len(specs):len(specs)], Spec{Name: "shadow", Resource: OneEntity, Method: MethodPut})
	if k := routeTable(shadow)[OneEntity][MethodPut]; k != Replace {
		t.Errorf("a later row took Replace's route: %v", k)
	}
	if Route(OneTable, MethodPut) != 0 {
		t.Error("the fake row leaked into the table")
	}
}
