-- The rank each player shows once the rating has settled, and the run of
-- results toward moving it one step (promotion and demotion after a run,
-- as Fox's 段位 move): NULL while the rating is provisional.
ALTER TABLE users ADD COLUMN shown_rank TEXT;
ALTER TABLE users ADD COLUMN rank_streak INTEGER NOT NULL DEFAULT 0;
