package lesson

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// claimRun is how many words in a row a summary may share with a step's
// after-text: four content words in a row (small words are not counted)
// is the after-text's claim said again.
const claimRun = 4

// longestRun is the longest run of words a and b share, and that run.
func longestRun(a, b []string) (int, string) {
	best, at := 0, 0
	for i := range a {
		for j := range b {
			k := 0
			for i+k < len(a) && j+k < len(b) && a[i+k] == b[j+k] {
				k++
			}
			if k > best {
				best, at = k, i
			}
		}
	}
	return best, strings.Join(a[at:at+best], " ")
}

// summaryGiveaways lists what a lesson's summary, shown above step 1, says
// of the answers its steps ask for: whatever a step's before-text may not
// say (giveaways), the after-text's claim (a run of claimRun words shared
// with it), and a figure the after-text reveals that the step does not
// give (a number of two digits or more in the after-text but not in the
// step's title, text or question).
func summaryGiveaways(l *Lesson) []string {
	summary := words(l.Summary)
	inSummary := map[string]bool{}
	for _, w := range summary {
		inSummary[w] = true
	}
	var found []string
	for i, s := range l.Steps {
		at := "step " + strconv.Itoa(i+1) + " (" + s.Title + "): "
		for _, g := range giveaways(Step{Text: l.Summary, Predict: s.Predict, Expect: s.Expect}) {
			found = append(found, at+g)
		}
		if n, run := longestRun(summary, words(s.Explain)); n >= claimRun {
			found = append(found, at+"the after-text's claim "+strconv.Quote(run))
		}
		given := map[string]bool{}
		question := ""
		if s.Predict != nil {
			question = s.Predict.Question
		}
		for _, w := range words(s.Title + " " + s.Text + " " + question) {
			given[w] = true
		}
		for _, w := range words(s.Explain) {
			if len(w) >= 2 && strings.Trim(w, "0123456789,.") == "" && !given[w] && inSummary[w] {
				found = append(found, at+"the figure "+w+" the run reveals")
				given[w] = true
			}
		}
	}
	return found
}

// TestSummariesAskBeforeTelling keeps each lesson's summary, which is read
// before step 1, from answering the steps below it.
func TestSummariesAskBeforeTelling(t *testing.T) {
	for _, l := range loadAll(t) {
		for _, g := range summaryGiveaways(l) {
			t.Errorf("%s: the summary gives away %s", l.ID, g)
		}
	}
}

// TestSummaryGiveawaysAreFound proves the check fails on summaries that
// answer their steps: the five the lessons had before they were rewritten,
// each with what it gave away.
func TestSummaryGiveawaysAreFound(t *testing.T) {
	before := map[string]struct{ summary, want string }{
		"partition-design": {"The PartitionKey decides which queries are cheap. A query that fixes the PartitionKey reads one partition; a query on any other property reads every entity in the table and throws most away. Here the same 2,000 orders are stored twice: partitioned by customer (40 customers) and partitioned by day (100 days, 20 orders a day). Compare how many entities each query examines with how many it returns.",
			`the after-text's claim "reads every entity table throws most away"`},
		"two-clients": {"Two people open the same record. Each client holds the ETag it read. The first to write wins and the entity's ETag changes, so the second write, made with an ETag that no longer matches, is refused with 412. The loser must read again, reconcile and retry — nothing is lost silently.",
			`the answer's "412"`},
		"etags": {"Every entity carries an ETag that changes with each write. Replace, merge and delete send it in `If-Match`: the write happens only if the entity still has that ETag. `If-Match: *` writes whatever the entity is now. This is optimistic concurrency: nothing is locked, and a client that lost a race finds out from a 412.",
			`the answer's "412"`},
		"transactions": {"A `$batch` request may carry one change set: up to 100 writes to entities of one table and one PartitionKey, applied atomically. If any operation fails, none is applied, and the answer names the failing operation by its index.",
			"the figure 100 the run reveals"},
		"int64-javascript": {"An Edm.Int64 holds any 64-bit integer, but a JavaScript number (an IEEE double) holds integers exactly only up to 2^53 = 9007199254740992. That is why the wire writes Int64 values as JSON strings with an `Edm.Int64` annotation: a client that parses the body into numbers would otherwise round them.",
			`the answer's "9007199254740992"`},
	}
	ls, err := Load(os.DirFS("../../lessons"))
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, l := range ls {
		old, ok := before[l.ID]
		if !ok {
			continue
		}
		seen++
		was := *l
		was.Summary = old.summary
		got := strings.Join(summaryGiveaways(&was), "; ")
		if !strings.Contains(got, old.want) {
			t.Errorf("%s: the old summary's giveaways %q, want them to name %s", l.ID, got, old.want)
		}
	}
	if seen != len(before) {
		t.Errorf("found %d of the %d lessons", seen, len(before))
	}
}
