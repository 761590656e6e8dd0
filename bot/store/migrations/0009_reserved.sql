-- Intentionally empty: number 0009 was reserved for the pace and threads work (issue 28), which keeps
-- what it needs in the tables row it already had. Kept so the numbering stays gap-free (the runner
-- requires 0001, 0002, … in order).
SELECT 1;
