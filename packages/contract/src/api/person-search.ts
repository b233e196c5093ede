/**
 * personSearch (issue 9): one box finds students, parents, teachers and pick-up persons by any part
 * of the name, 4+ consecutive digits of the phone, the card number or the student number, across the
 * caller's scope. The families and which of their fields are searched are declared here once: the
 * server builds its queries from it and the web its result groups.
 */
import { z } from 'zod';
import { DIGITS_ANY_PART_MIN } from '../resources/define.js';

export const PERSON_SEARCH_PATH = '/api/Person/Search';

/** The families one box searches, in the order the page shows their groups. */
export const PERSON_FAMILIES = ['Student', 'Parent', 'Teacher', 'PickUpPerson'] as const;
export type PersonFamily = (typeof PERSON_FAMILIES)[number];

/** How a hit matched the box: the web highlights that column. */
export const PERSON_MATCHES = ['name', 'phoneNum', 'cardNo', 'studentNo'] as const;
export type PersonMatch = (typeof PERSON_MATCHES)[number];

/**
 * Which fields of each family are searched: `name` by any part (trigram indexed), `phoneNum` by any
 * 4+ consecutive digits (trigram indexed), the others exactly (btree indexed).
 */
export const PERSON_SEARCH_FIELDS: Readonly<Record<PersonFamily, { phone: boolean; exact: readonly ('cardNo' | 'studentNo')[] }>> = {
  Student: { phone: false, exact: ['studentNo', 'cardNo'] },
  Parent: { phone: true, exact: [] },
  Teacher: { phone: true, exact: ['cardNo'] },
  PickUpPerson: { phone: true, exact: [] },
};

/** Digits from which the box reads as part of a phone: the `digits` search rule's threshold. */
export const PHONE_DIGITS_MIN = DIGITS_ANY_PART_MIN;
export const PERSON_SEARCH_LIMIT_MAX = 50;

/** The digits of the box when it reads as (part of) a phone number — digits with spaces or dashes — else null. */
export function phoneDigitsOf(q: string): string | null {
  if (!/^[\d\s-]+$/.test(q)) return null;
  const digits = q.replace(/\D/g, '');
  return digits.length >= PHONE_DIGITS_MIN ? digits : null;
}

export const personSearchQuerySchema = z.object({
  q: z.string().trim().min(1).max(50),
  /** Rows per family. */
  limit: z.coerce.number().int().min(1).max(PERSON_SEARCH_LIMIT_MAX).default(10),
});
export type PersonSearchQuery = z.infer<typeof personSearchQuerySchema>;

export const personHitSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  schoolId: z.number().int().nullable(),
  schoolName: z.string().nullable(),
  phoneNum: z.string().nullable(),
  cardNo: z.string().nullable(),
  studentNo: z.string().nullable(),
  matched: z.enum(PERSON_MATCHES),
});
export type PersonHit = z.infer<typeof personHitSchema>;

export const personGroupSchema = z.object({
  family: z.enum(PERSON_FAMILIES),
  items: z.array(personHitSchema),
  /** More rows match than `limit`: the family's own page, filtered, shows them all. */
  hasMore: z.boolean(),
});
export type PersonGroup = z.infer<typeof personGroupSchema>;

/** One group per family the caller may open (holds its page), in PERSON_FAMILIES order. */
export const personSearchAnswerSchema = z.object({ groups: z.array(personGroupSchema) });
export type PersonSearchAnswer = z.infer<typeof personSearchAnswerSchema>;
