-- Each account's confusable skeleton (Unicode TR39, case folded): a new
-- name that looks like an existing one ("Ѕhoutan-AI-1" with a Cyrillic Ѕ
-- beside "Shoutan-AI-1") is refused. Accounts made before this migration
-- get theirs when the store opens; NULL where two older accounts already
-- look alike (both keep their names).
ALTER TABLE users ADD COLUMN name_skeleton TEXT;
CREATE UNIQUE INDEX users_name_skeleton ON users (name_skeleton);
