// Plan limits as the marketing copy quotes them, read from the catalogue (never typed into the copy).
import { PLANS, formatPlanFileSize, type PlanKey } from '@csv-mapper/domain';

function facts(key: PlanKey) {
  const l = PLANS[key].limits;
  return {
    name: PLANS[key].name,
    fileSize: formatPlanFileSize(l.maxFileSize).replace(/MB$/, ' MB'),
    rowsPerFile: l.maxRowsPerFile.toLocaleString('en-GB'),
    rowsPerMonth: l.maxMonthlyRows.toLocaleString('en-GB'),
  };
}

export const FREE = facts('free');
export const PRO = facts('pro');
export const BUSINESS = facts('business');
