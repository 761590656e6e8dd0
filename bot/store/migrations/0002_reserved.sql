-- Placeholder keeping the migration numbers gap-free on the h16 branch: 0002 belongs to h13a.
-- When h13a's 0002_*.sql is merged, this file is deleted (it changes nothing).
SELECT 1;
