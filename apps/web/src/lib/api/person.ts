import { PERSON_SEARCH_PATH, type PersonSearchAnswer } from '@campus/contract';
import { http } from '../request';

export const personApi = {
  /** Students, parents, teachers and pick-up persons matching one box, grouped by family. */
  search: (q: string, limit: number) => http.get<PersonSearchAnswer>(PERSON_SEARCH_PATH, { q, limit }),
};
