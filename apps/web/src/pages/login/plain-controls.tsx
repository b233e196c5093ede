import { CloseCircleFilled, EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { useState, type ButtonHTMLAttributes, type HTMLAttributes, type ReactNode } from 'react';
import { useT } from '../../lib/i18n';
import './plain-controls.css';

/*
 * /login's controls in plain markup, drawn like antd's large Form.Item, Input, Button and Alert (same
 * sizes, colours and states): the page looks as the console does without downloading antd.
 */

interface PlainFieldProps {
  /** The input's id and name (the e2e journeys fill #userName, #password, #vcCode, #code). */
  id: string;
  value: string;
  onChange: (value: string) => void;
  placeholder: string;
  icon: ReactNode;
  errors?: string[];
  type?: 'text' | 'password';
  autoComplete?: string;
  autoFocus?: boolean;
  maxLength?: number;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  /** A hint under the field (antd's `extra`). */
  extra?: ReactNode;
  /** Drawn beside the input on the same row (the image code). */
  beside?: ReactNode;
}

export function PlainField({ id, value, onChange, placeholder, icon, errors = [], type = 'text', autoComplete, autoFocus, maxLength, inputMode, extra, beside }: PlainFieldProps) {
  const t = useT();
  const [isRevealed, setRevealed] = useState(false);
  const hasError = errors.length > 0;
  const errorId = `${id}-error`;
  const input = (
    <span className={`plain-input${hasError ? ' plain-input-error' : ''}`}>
      <span className="plain-input-prefix">{icon}</span>
      <input
        id={id}
        name={id}
        type={type === 'password' && !isRevealed ? 'password' : 'text'}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        aria-invalid={hasError || undefined}
        aria-describedby={hasError ? errorId : undefined}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        maxLength={maxLength}
        inputMode={inputMode}
        spellCheck={false}
      />
      {type === 'password' ? (
        <button type="button" className="plain-input-reveal" onClick={() => setRevealed((shown) => !shown)} aria-label={t(isRevealed ? 'login.hidePassword' : 'login.showPassword')} aria-pressed={isRevealed}>
          {isRevealed ? <EyeOutlined /> : <EyeInvisibleOutlined />}
        </button>
      ) : null}
    </span>
  );
  return (
    <div className={`plain-field${hasError ? ' plain-field-with-help' : ''}`}>
      {beside ? (
        <div className="plain-field-row">
          {input}
          {beside}
        </div>
      ) : (
        input
      )}
      {hasError ? (
        <div id={errorId} className="plain-field-error" role="alert">
          {errors.map((message) => (
            <div key={message}>{message}</div>
          ))}
        </div>
      ) : null}
      {extra ? <div className="plain-field-extra">{extra}</div> : null}
    </div>
  );
}

interface PlainButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> {
  variant: 'primary' | 'link';
  htmlType?: 'button' | 'submit';
  isLoading?: boolean;
}

/** antd's large block Button, primary or link; loading shows antd's turning ring before the text. */
export function PlainButton({ variant, htmlType = 'button', isLoading = false, disabled, className, children, ...props }: PlainButtonProps) {
  return (
    <button
      {...props}
      type={htmlType}
      disabled={disabled}
      aria-busy={isLoading || undefined}
      className={`plain-button plain-button-${variant}${isLoading ? ' plain-button-loading' : ''}${className ? ` ${className}` : ''}`}
      onClick={isLoading ? undefined : props.onClick}
    >
      {isLoading ? <span className="plain-button-ring" aria-hidden="true" /> : null}
      <span>{children}</span>
    </button>
  );
}

/** antd's error Alert with its icon. */
export function PlainErrorAlert({ children, ...props }: { children: ReactNode } & HTMLAttributes<HTMLDivElement>) {
  return (
    <div {...props} className="plain-alert-error" role="alert">
      <CloseCircleFilled className="plain-alert-icon" />
      <div className="plain-alert-message">{children}</div>
    </div>
  );
}
