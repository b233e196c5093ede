import { QUESTION_TYPE_MULTIPLE, QUESTION_TYPE_SINGLE, type PublicQuestionnaire, type QuestionnaireAnswerBody } from '@campus/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Radio, Result, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { PublicPageFrame } from '../../components/public-page-frame';
import { questionnaireApi } from '../../lib/api/questionnaire';
import { useT } from '../../lib/i18n';
import { RequestError } from '../../lib/request';


/** A random key kept per questionnaire in this browser: a reload or a second click is the same respondent. */
function respondentKeyOf(questionnaireId: number): string {
  const storageKey = `survey.respondent.${questionnaireId}`;
  const stored = window.localStorage.getItem(storageKey);
  if (stored) return stored;
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const key = `web-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  window.localStorage.setItem(storageKey, key);
  return key;
}

type FormValues = { schoolId?: number } & Record<string, number | number[] | string | undefined>;

/** The answers a form holds, as the server takes them: options by position, texts trimmed, unanswered left out. */
function answersOf(form: PublicQuestionnaire, values: FormValues): QuestionnaireAnswerBody['answers'] {
  return form.questions.flatMap((question): QuestionnaireAnswerBody['answers'] => {
    const value = values[`q${question.questionNo}`];
    if (question.type === QUESTION_TYPE_SINGLE) return typeof value === 'number' ? [{ questionNo: question.questionNo, optionNos: [value] }] : [];
    if (question.type === QUESTION_TYPE_MULTIPLE) return Array.isArray(value) && value.length > 0 ? [{ questionNo: question.questionNo, optionNos: value }] : [];
    return typeof value === 'string' && value.trim() ? [{ questionNo: question.questionNo, text: value.trim() }] : [];
  });
}

/** /survey?token=…: a questionnaire answered without a login, through the link the console hands out. */
export default function SurveyPage() {
  const t = useT();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [form] = Form.useForm<FormValues>();
  const [outcome, setOutcome] = useState<'thanks' | 'already' | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const loaded = useQuery({ queryKey: ['survey', token], queryFn: () => questionnaireApi.publicForm(token), enabled: token !== '', retry: false });
  const questionnaire = loaded.data;

  const submit = async (values: FormValues) => {
    if (!questionnaire) return;
    setFailure(null);
    try {
      await questionnaireApi.answer({ token, respondentKey: respondentKeyOf(questionnaire.id), schoolId: values.schoolId, answers: answersOf(questionnaire, values) });
      setOutcome('thanks');
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      if (error.status === 409 && error.errors.length === 0 && /already|已提交/.test(error.message)) return setOutcome('already');
      // Errors name `questions.<no>` or `schoolId`: put each beside its question.
      const fields = error.errors.map((problem) => ({ name: problem.path.startsWith('questions.') ? `q${problem.path.slice('questions.'.length)}` : problem.path, errors: [problem.message] }));
      if (fields.length > 0) form.setFields(fields);
      else setFailure(error.message);
    }
  };

  let body;
  if (token === '' || loaded.isError) body = <Result status="warning" title={t('survey.unavailable')} />;
  else if (!questionnaire) body = <Spin />;
  else if (outcome) body = <Result status={outcome === 'thanks' ? 'success' : 'info'} title={t(outcome === 'thanks' ? 'survey.thanks' : 'survey.alreadyAnswered')} />;
  else
    body = (
      <Form form={form} layout="vertical" onFinish={submit} requiredMark data-testid="survey-form">
        {questionnaire.description && <Typography.Paragraph type="secondary">{questionnaire.description}</Typography.Paragraph>}
        <Typography.Paragraph type="secondary">{t('survey.window', { from: questionnaire.startDate, until: questionnaire.endDate })}</Typography.Paragraph>
        {questionnaire.isSchoolRequired && (
          <Form.Item name="schoolId" label={t('survey.school')} rules={[{ required: true, message: t('survey.chooseSchool') }]}>
            <Select showSearch optionFilterProp="label" placeholder={t('survey.chooseSchool')} options={questionnaire.schools.map((school) => ({ value: school.id, label: school.schoolName }))} />
          </Form.Item>
        )}
        {questionnaire.questions.map((question) => {
          const options = question.options.map((option, index) => ({ value: index + 1, label: option }));
          const rules = question.isRequired ? [{ required: true, message: t('survey.required') }] : [];
          return (
            <Form.Item key={question.questionNo} name={`q${question.questionNo}`} label={`${question.questionNo}. ${question.title}`} rules={rules}>
              {question.type === QUESTION_TYPE_SINGLE ? (
                <Radio.Group>
                  <Space direction="vertical">{options.map((option) => <Radio key={option.value} value={option.value}>{option.label}</Radio>)}</Space>
                </Radio.Group>
              ) : question.type === QUESTION_TYPE_MULTIPLE ? (
                <Checkbox.Group>
                  <Space direction="vertical">{options.map((option) => <Checkbox key={option.value} value={option.value}>{option.label}</Checkbox>)}</Space>
                </Checkbox.Group>
              ) : (
                <Input.TextArea rows={3} maxLength={1000} showCount />
              )}
            </Form.Item>
          );
        })}
        {failure && <Alert type="error" showIcon message={failure} style={{ marginBottom: 16 }} />}
        <Button type="primary" htmlType="submit" size="large" block>
          {t('survey.submit')}
        </Button>
      </Form>
    );

  return (
    <PublicPageFrame title={questionnaire?.title ?? t('survey.title')} width={560}>
      {body}
    </PublicPageFrame>
  );
}
