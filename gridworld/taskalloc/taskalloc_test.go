package taskalloc_test

import (
	"context"
	"testing"

	"github.com/argosgo/argos/gridworld"
	"github.com/argosgo/argos/gridworld/taskalloc"
)

// check verifies, after a round, that no vertex has more committed agents
// than the demand its tasks started with, and that what is committed and
// what is left add up to the demand. initial holds the demand of the
// vertices with tasks.
func check(t *testing.T, p *taskalloc.Program, initial map[int32]int32) {
	t.Helper()
	committed := map[int32]int32{}
	var total int64
	p.Each(func(_, at int32, a *taskalloc.Agent) {
		if a.Phase == taskalloc.Committed {
			committed[at]++
			total++
		}
	})
	for v, c := range committed {
		if c > initial[v] {
			t.Fatalf("round %d: vertex %d has %d committed agents for a demand of %d", p.Round(), v, c, initial[v])
		}
	}
	for v, d0 := range initial {
		if d := p.Vertices()[v].Demand; d < 0 || committed[v]+d != d0 {
			t.Fatalf("round %d: vertex %d: %d committed + %d residual != demand %d", p.Round(), v, committed[v], d, d0)
		}
	}
	if total+p.Residual() != p.Demand() {
		t.Fatalf("round %d: %d committed + %d residual != demand %d", p.Round(), total, p.Residual(), p.Demand())
	}
}

func initialDemand(p *taskalloc.Program) map[int32]int32 {
	d := map[int32]int32{}
	for _, t := range p.Tasks() {
		d[t.At] += t.Demand
	}
	return d
}

// No task is ever over-committed, also when many agents reach one task
// in the same round: ParSwarm's small case, and a crowd of 3000 agents
// around 5 tasks that need 40 of them.
func TestNeverOverCommits(t *testing.T) {
	for _, c := range []struct {
		name          string
		g             gridworld.Grid
		agents, tasks int
		demand        int64
		radius        int
	}{
		{"ParSwarm's small case", gridworld.Grid2D(50, 50, true), 100, 16, 80, 2},
		{"crowd", gridworld.Grid2D(12, 12, true), 3000, 5, 40, 3},
		{"3D bounded", gridworld.Grid3D(10, 10, 10, false), 500, 30, 200, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 3; seed++ {
				p, err := taskalloc.NewWorld(gridworld.Config{Grid: c.g, Agents: c.agents, Radius: c.radius, Seed: seed, Threads: 2, MinChunk: 64},
					taskalloc.RandomTasks(c.g, c.tasks, c.demand, seed))
				if err != nil {
					t.Fatal(err)
				}
				initial := initialDemand(p)
				for !p.Finished() && p.Round() < 3000 {
					if err := p.Step(); err != nil {
						t.Fatal(err)
					}
					check(t, p, initial)
				}
				if !p.Finished() || p.Residual() != 0 || p.TasksDone() != c.tasks {
					t.Errorf("seed %d: after %d rounds: finished %v, residual %d, %d of %d tasks done", seed, p.Round(), p.Finished(), p.Residual(), p.TasksDone(), c.tasks)
				}
			}
		})
	}
}

// An agent sees a task within its local mapping and walks straight to
// it; one that sees none walks at random.
func TestAgentsGoToTasksInView(t *testing.T) {
	g := gridworld.Grid2D(20, 20, true)
	task := g.Vertex(10, 10, 0)
	start := []int32{g.Vertex(7, 10, 0), g.Vertex(10, 12, 0)}
	p, err := taskalloc.NewWorld(gridworld.Config{Grid: g, Agents: 2, Radius: 3, Seed: 1, Positions: start}, []taskalloc.Task{{At: task, Demand: 1}})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := p.Step(); err != nil {
			t.Fatal(err)
		}
	}
	pos, st := p.Positions(nil), p.States(nil)
	// agent 0 needs 3 steps, agent 1 two: agent 1 is there first and
	// commits on its third round; agent 0 arrives then, too late
	if pos[1] != task || st[1].Phase != taskalloc.Committed {
		t.Errorf("agent 1 at %d phase %d, want committed at the task %d", pos[1], st[1].Phase, task)
	}
	if pos[0] != task || st[0].Phase == taskalloc.Committed {
		t.Errorf("agent 0 at %d phase %d, want at the task %d, not committed", pos[0], st[0].Phase, task)
	}
	if !p.Finished() {
		t.Error("the only task's demand is met but the run is not finished")
	}
}

func TestSmallCaseFromTheFileParams(t *testing.T) {
	g := gridworld.Grid2D(50, 50, true)
	tasks := taskalloc.RandomTasks(g, 16, 80, 1)
	var sum int32
	for _, tk := range tasks {
		if tk.Demand != 5 {
			t.Errorf("task demand %d, want 80/16 = 5", tk.Demand)
		}
		sum += tk.Demand
	}
	if sum != 80 {
		t.Errorf("total demand %d", sum)
	}
	tasks = taskalloc.RandomTasks(g, 3, 8, 1)
	if tasks[0].Demand != 3 || tasks[1].Demand != 3 || tasks[2].Demand != 2 {
		t.Errorf("8 split over 3 tasks: %v", tasks)
	}
	p, err := taskalloc.NewWorld(gridworld.Config{Grid: g, Agents: 100, Radius: 2, Seed: 1}, taskalloc.RandomTasks(g, 16, 80, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Run(context.Background(), 10000); err != nil {
		t.Fatal(err)
	}
	t.Logf("ParSwarm's small case finished in %d rounds", p.Round())
}
