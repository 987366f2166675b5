package lesson

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tableplay/tableplay/web/locales"
)

// stopwords are the small words a choice shares with any prose.
var stopwords = map[string]bool{"the": true, "and": true, "with": true, "not": true, "its": true, "are": true,
	"for": true, "was": true, "has": true, "yes": false, "all": false}

// words splits text into lower-case words and numbers ("2,000", "10:00" and
// "edm.int32" stay whole); small words and stopwords are dropped, numbers
// are kept at any length.
func words(text string) []string {
	isWord := func(c byte) bool {
		return c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
	}
	t := strings.ToLower(text)
	var out []string
	for i := 0; i < len(t); {
		if !isWord(t[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(t) && (isWord(t[j]) || strings.IndexByte(",.:", t[j]) >= 0 && j+1 < len(t) && isWord(t[j+1]) && isWord(t[j-1]) && (t[j] != ',' || t[j-1] >= '0' && t[j-1] <= '9')) {
			j++
		}
		w := t[i:j]
		digits := strings.ContainsAny(w, "0123456789")
		if digits || len(w) >= 3 && !stopwords[w] {
			out = append(out, w)
		}
		i = j
	}
	return out
}

// giveaways lists what a step's before-text (its title and text) says of
// its answer: a word or number of the right choice that neither a wrong
// choice nor the question has, the expected error code, and the counts a
// query or draft expects (10 and up) unless the question itself names them.
func giveaways(s Step) []string {
	before := map[string]bool{}
	for _, w := range words(s.Title + " " + s.Text) {
		before[w] = true
	}
	var found []string
	asked := map[string]bool{}
	if p := s.Predict; p != nil {
		common := map[string]bool{}
		for _, w := range words(p.Question) {
			common[w], asked[w] = true, true
		}
		for i, c := range p.Choices {
			if i != p.Answer {
				for _, w := range words(c) {
					common[w] = true
				}
			}
		}
		for _, w := range words(p.Choices[p.Answer]) {
			if !common[w] && before[w] {
				found = append(found, "the answer's "+strconv.Quote(w))
			}
		}
		if st := s.Expect.Status; st != 0 && before[strconv.Itoa(st)] {
			found = append(found, "the expected status")
		}
	}
	if c := s.Expect.Code; c != "" && strings.Contains(strings.ToLower(s.Title+" "+s.Text), strings.ToLower(c)) {
		found = append(found, "the error code "+c)
	}
	for _, n := range []*int{s.Expect.Scanned, s.Expect.Returned, s.Expect.Size} {
		if n == nil || *n < 10 {
			continue
		}
		text, grouped := strconv.Itoa(*n), group(*n)
		if before[text] && !asked[text] || before[grouped] && !asked[grouped] {
			found = append(found, "the expected count "+group(*n))
		}
	}
	return found
}

// TestStepsAskBeforeTelling keeps every lesson's steps from giving their
// answer away before the run, and requires an after-text for each.
func TestStepsAskBeforeTelling(t *testing.T) {
	for _, l := range loadAll(t) {
		for i, s := range l.Steps {
			if g := giveaways(s); len(g) > 0 {
				t.Errorf("%s step %d (%s): the text before the run gives away %s", l.ID, i+1, s.Title, strings.Join(g, ", "))
			}
			if strings.TrimSpace(s.Explain) == "" {
				t.Errorf("%s step %d: no explanation after the run", l.ID, i+1)
			}
		}
	}
}

// TestGiveawaysAreFound proves the check catches prose that tells before it
// asks: the texts the lessons had before they were rewritten.
func TestGiveawaysAreFound(t *testing.T) {
	two, answerAll := 2000, 54
	cases := []Step{
		{Title: "The same customer, keyed by day", Text: "In `OrdersByDay` the customer is an ordinary property: the engine must examine every order of the 2,000 to find the 54 that match.",
			Predict: &Prediction{Question: "How many entities are examined this time?", Choices: []string{"54", "About 1,000", "All 2,000"}, Answer: 2},
			Expect:  Expect{Status: 200, Scanned: &two, Returned: &answerAll}},
		{Title: "The reserved name", Text: "Try to create `Tables`: the service answers 400 with InvalidInput.",
			Predict: &Prediction{Question: "What does the service answer?", Choices: []string{"201 Created", "400 Bad Request", "404 Not Found"}, Answer: 1},
			Expect:  Expect{Status: 400, Code: "InvalidInput"}},
		{Title: "Insert or replace", Text: "Insert-or-replace on the same entity with `Email` only replaces it.",
			Predict: &Prediction{Question: "After insert-or-replace with only `Email`, which properties remain?", Choices: []string{"Email only", "Visits, Name and Email"}, Answer: 0},
			Expect:  Expect{Status: 204}},
	}
	wants := [][]string{{`the answer's "2,000"`, "the expected count 2,000"}, {"the expected status", "the error code InvalidInput"}, nil}
	for i, s := range cases {
		got := strings.Join(giveaways(s), "; ")
		for _, w := range wants[i] {
			if !strings.Contains(got, w) {
				t.Errorf("case %d: giveaways %q, want it to name %q", i, got, w)
			}
		}
	}
	// "only" is in the question, so it is no giveaway there; taken out of
	// the question it is.
	s := cases[2]
	s.Predict = &Prediction{Question: "Which properties remain?", Choices: s.Predict.Choices, Answer: 0}
	if g := giveaways(s); len(g) == 0 {
		t.Error(`"only" in the text was not found as the answer's word`)
	}
}

// TestExplanationsCarryTheEngineFigures runs every lesson and requires each
// explanation to come back with its placeholders filled by this run's
// figures; partition-design step 2 must say 54 returned of 2,000 examined.
func TestExplanationsCarryTheEngineFigures(t *testing.T) {
	partition := false
	for _, l := range loadAll(t) {
		partition = partition || l.ID == "partition-design"
		s := newSession()
		if err := s.Start(l); err != nil {
			t.Fatal(err)
		}
		for i := range l.Steps {
			r := s.Run(i)
			if r.Explanation == "" || strings.ContainsAny(r.Explanation, "{}") || strings.Contains(r.Explanation, "?") && !strings.Contains(l.Steps[i].Explain, "?") {
				t.Errorf("%s step %d: explanation %q", l.ID, i+1, r.Explanation)
			}
			if l.ID == "partition-design" && i == 1 && !strings.HasPrefix(r.Explanation, "54 returned, 2,000 examined") {
				t.Errorf("partition-design step 2: %q", r.Explanation)
			}
		}
	}
	if !partition {
		t.Error("lesson partition-design not loaded: its step 2 figures were not checked")
	}
}

// TestExplainPlaceholdersChecked refuses a figure the step does not measure,
// an unknown one, and a step without an explanation.
func TestExplainPlaceholdersChecked(t *testing.T) {
	for _, c := range []struct{ explain, want string }{
		{"{scanned} examined", "{scanned} is not a figure"},
		{"{answer}", "{answer} is not a figure"},
		{"{status", "{{} is not a figure"},
		{"", "explain are required"},
	} {
		_, err := mutate(t, "etags", func(doc map[string]any) { stepOf(doc, 0)["explain"] = c.explain })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("explain %q: %v, want %q", c.explain, err, c.want)
		}
	}
}

// TestQueryDecoded gives a step's query as text: partition-design step 3's
// $filter, $select and $top, and paging step 3's continuation.
func TestQueryDecoded(t *testing.T) {
	seen := 0
	for _, l := range loadAll(t) {
		if l.ID != "partition-design" && l.ID != "paging" {
			continue
		}
		seen++
		s := newSession()
		if err := s.Start(l); err != nil {
			t.Fatal(err)
		}
		var got [][2]string
		for i := 0; i < 3; i++ {
			got = s.Run(i).Query
		}
		if l.ID == "partition-design" {
			want := [][2]string{{"$filter", "Customer eq 'customer-07'"}, {"$select", "RowKey"}, {"$top", "5"}}
			for _, w := range want {
				if !containsPair(got, w) {
					t.Errorf("partition-design step 3: query %q lacks %q", got, w)
				}
			}
		} else if !containsPairPrefix(got, "NextPartitionKey") || !containsPairPrefix(got, "NextRowKey") {
			t.Errorf("paging step 3: query %q lacks the continuation", got)
		}
	}
	if seen != 2 {
		t.Fatalf("%d of the lessons partition-design and paging loaded", seen)
	}
}

func containsPair(list [][2]string, p [2]string) bool {
	for _, x := range list {
		if x == p {
			return true
		}
	}
	return false
}

func containsPairPrefix(list [][2]string, name string) bool {
	for _, x := range list {
		if x[0] == name && x[1] != "" {
			return true
		}
	}
	return false
}

// group writes n as the English lessons' prose does (2,000).
func group(n int) string { return locales.English().Int(int64(n)) }
