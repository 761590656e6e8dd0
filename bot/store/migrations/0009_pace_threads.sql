-- PLACEHOLDER kept by branch h31review only so that its 0011_reviews.sql runs gap-free on its own
-- (the runner requires 0001, 0002, … in order). Number 0009 belongs to another branch:
-- on merge, take that branch's file and drop this one; if that branch needs no migration, keep
-- this file as a reserved number (as 0002_reserved.sql).
SELECT 1;
