-- Intentionally empty: number 0002 was reserved for the hardening work, which needed no schema
-- change. Kept so the numbering stays gap-free (the runner requires 0001, 0002, … in order).
SELECT 1;
