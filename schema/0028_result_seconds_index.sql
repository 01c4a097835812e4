-- Time-to-result percentiles read one rank of a bin, not the whole bin (issue 15.5).
--
-- TimeToResultReport finds, from journey_daily_result_bins, the bin holding each rank that
-- percentile_cont needs and its offset in that bin, then reads that one value. With the bin
-- indexes of 0026 (bin, started_at) every journey of the bin in the window had to be sorted by
-- its seconds (at 2M journeys, a 1-year window: tens of thousands of rows per bin). These indexes
-- keep each bin's journeys in order of their seconds, so `ORDER BY seconds OFFSET k LIMIT 1` walks
-- the bin and stops at the rank, reading the window's columns from the index (index-only scan).
-- They replace 0026's bin indexes, which nothing else reads.

DROP INDEX journey_state_result_bin_start;
DROP INDEX journey_state_result_bin_callback;

CREATE INDEX journey_state_result_seconds_start
    ON journey_state (journey_result_bin(extract(epoch FROM result_at - started_at)::float8),
                      (extract(epoch FROM result_at - started_at)::float8))
    INCLUDE (started_at, environment, tenant, result_at) WHERE result_at IS NOT NULL;
CREATE INDEX journey_state_result_seconds_callback
    ON journey_state (journey_result_bin(extract(epoch FROM result_at - callback_at)::float8),
                      (extract(epoch FROM result_at - callback_at)::float8))
    INCLUDE (started_at, environment, tenant, result_at, callback_at) WHERE result_at IS NOT NULL AND callback_at IS NOT NULL;
