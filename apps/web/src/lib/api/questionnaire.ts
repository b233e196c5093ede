import { QUESTIONNAIRE_PATHS, type PublicQuestionnaire, type QuestionnaireAnswerBody, type QuestionnaireLink, type QuestionnaireResults } from '@campus/contract';
import { download, http } from '../request';

export const questionnaireApi = {
  /** Each question's results over the answers of the caller's schools. */
  results: (id: number) => http.get<QuestionnaireResults>(QUESTIONNAIRE_PATHS.results, { id }),
  /** The signed link respondents open without a login. */
  link: (id: number) => http.get<QuestionnaireLink>(QUESTIONNAIRE_PATHS.link, { id }),
  /** Every answer as .xlsx, saved by the browser. */
  exportAnswers: (id: number) => download(QUESTIONNAIRE_PATHS.exportAnswers, { id }),
  /** The form behind a link (public). */
  publicForm: (token: string) => http.get<PublicQuestionnaire>(QUESTIONNAIRE_PATHS.publicForm, { token }, { silent: true }),
  /** A respondent's answer through the link (public). */
  answer: (body: QuestionnaireAnswerBody) => http.post<{ answerId: number }>(QUESTIONNAIRE_PATHS.publicAnswer, body, { silent: true }),
};
