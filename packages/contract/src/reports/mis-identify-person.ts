/**
 * misIdentifyPerson (issue 9): the people the terminals most often fail to recognise — a failed
 * recognition of a known person, or a success with a low similarity — per school and date range,
 * with the last such snapshot. Read from a rollup the database keeps per (day, school, person) in
 * the transaction of every recognition insert (docs/decisions.md "misIdentifyPerson reads a rollup").
 */
import { RECOGNITION_PERSON_KIND_OPTIONS } from '../resources/recognition.js';
import { schoolRef } from '../resources/common.js';
import { defineReport } from './define.js';

/** A successful recognition below this similarity (of 100) counts as a near miss of the person. */
export const LOW_SIMILARITY = 80;

/** Days the report covers when the caller names none (today included). */
export const MIS_IDENTIFY_DEFAULT_DAYS = 30;

/** Person kinds a misidentification can name: an unknown face has no person to count. */
const KNOWN_PERSON_KIND_OPTIONS = RECOGNITION_PERSON_KIND_OPTIONS.filter((option) => option.value !== 5);

export const MisIdentifyPerson = defineReport({
  name: 'MisIdentifyPerson',
  label: { zh: '误识别人员', en: 'Misidentified persons' },
  views: [{ frame: 'misIdentifyPerson' }],
  filters: {
    // A range of business days, the last MIS_IDENTIFY_DEFAULT_DAYS when none is given; no `period`:
    // the groups are people, not days.
    day: { kind: 'date', label: { zh: '日期', en: 'Date' }, filter: 'range' },
    schoolId: schoolRef({ required: false }),
    personKind: { kind: 'enum', options: KNOWN_PERSON_KIND_OPTIONS, label: { zh: '人员类型', en: 'Person type' }, filter: 'equals' },
  },
  dimensions: {
    personName: { kind: 'text', label: { zh: '姓名', en: 'Name' } },
    personKind: { kind: 'enum', options: KNOWN_PERSON_KIND_OPTIONS, label: { zh: '人员类型', en: 'Person type' } },
    personId: { kind: 'text', label: { zh: '人员编号', en: 'Person id' } },
    schoolId: { kind: 'reference', family: 'School', label: { zh: '学校', en: 'School' } },
  },
  measures: {
    failed: { kind: 'count', label: { zh: '识别失败', en: 'Failed' }, color: '#f5222d' },
    lowSimilarity: { kind: 'count', label: { zh: `低相似度(<${LOW_SIMILARITY})`, en: `Low similarity (<${LOW_SIMILARITY})` }, color: '#faad14' },
    total: { kind: 'count', label: { zh: '合计', en: 'Total' } },
  },
  attributes: {
    lastAt: { kind: 'datetime', label: { zh: '最近一次', en: 'Last time' } },
    lastSnapshot: { kind: 'image', label: { zh: '最近抓拍', en: 'Last snapshot' } },
  },
  // A table only: a chart of thousands of people reads nothing; the top rows are the answer.
  chart: { type: 'table', x: 'personName', series: 'measures', measures: ['failed', 'lowSimilarity'] },
  defaultSort: { field: 'total', order: 'desc' },
  scope: { via: 'school', field: 'schoolId' },
});
