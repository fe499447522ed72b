-- Standing answers (issue 19) are logged as what they are: source 'auto', beside 'user', 'ai',
-- 'timeout' and 'system' (a seat that could answer nothing else, resignations, upgrades).
ALTER TABLE actions DROP CONSTRAINT IF EXISTS actions_source_check;
ALTER TABLE actions ADD CONSTRAINT actions_source_check
    CHECK (source IN ('user', 'ai', 'timeout', 'system', 'auto'));
